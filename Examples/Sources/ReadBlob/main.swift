// Reads a resume blob in any container and says what it holds and what is wrong with it.
//
//     swift run ReadBlob ../Samples/ios12-keyed-archive.resumedata
import Foundation
import ResumeDataCodec

guard CommandLine.arguments.count == 2 else {
    print("usage: ReadBlob BLOB")
    exit(64)
}
let path = CommandLine.arguments[1]
guard let bytes = FileManager.default.contents(atPath: path) else {
    print("\(path): cannot read it")
    exit(1)
}
do {
    let resume = try ResumeData(data: bytes)
    print("container:      \(resume.container)")
    print("download URL:   \(resume.downloadURL ?? "none")")
    print("bytes received: \(resume.bytesReceived.map(String.init) ?? "none")")
    print("partial file:   \(resume.tempFileName ?? resume.localPath ?? "none")")
    print("validator:      \(resume.effectiveEntityTag ?? resume.effectiveServerDownloadDate ?? "none")")
    for finding in ResumeDataValidator(blobSize: bytes.count).findings(for: resume) {
        print("\(finding.severity): \(finding)")
    }
} catch {
    // Errors say where: a byte offset, a line:column or a key path.
    print("\(path): \(error)")
    exit(1)
}
