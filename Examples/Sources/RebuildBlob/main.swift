// Rebuilds a resume blob from a partial file when the app saved none: the file's size becomes
// the offset, and the request asks for the rest with the server's validator.
//
//     swift run RebuildBlob ../Samples/CFNetworkDownload_Occ2S2.tmp https://example.com/file.bin '"etag"' out.resumedata
import Foundation
import ResumeDataCodec

guard CommandLine.arguments.count == 5 else {
    print("usage: RebuildBlob PARTIAL URL ETAG OUTPUT")
    exit(64)
}
let arguments = CommandLine.arguments
do {
    let resume = try ResumeDataRebuilder(url: arguments[2], entityTag: arguments[3], container: .keyedArchive)
        .rebuild(fromPartialFile: arguments[1])
    // The container iOS 12 and later read.
    try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: arguments[4]))
    print("\(arguments[4]): \(resume.bytesReceived ?? 0) bytes to continue from")
} catch {
    print("error: \(error)")
    exit(1)
}
