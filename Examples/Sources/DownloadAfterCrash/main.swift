// Downloads a file; run it again after a crash (kill -9 at any moment) and it continues from
// the last checkpoint, FILE.part and FILE.resume, to the same bytes.
//
//     swift run DownloadAfterCrash https://example.com/big.iso big.iso
import Foundation
import ResumeTransfer

guard CommandLine.arguments.count == 3 else {
    print("usage: DownloadAfterCrash URL FILE")
    exit(64)
}
let (url, file) = (CommandLine.arguments[1], CommandLine.arguments[2])
// The scoped call shuts the downloader down however the body ends.
let state = try await Downloader.withDownloader { downloader in
    let task = downloader.download(from: url, to: file)
    for await event in task.events {
        if case .progress(let progress) = event {
            print("\(progress.bytesWritten) of \(progress.totalBytes.map(String.init) ?? "?") bytes")
        }
    }
    return await task.result()
}
switch state {
case .completed:
    print("\(file): done")
case .failed(let error):
    print("\(file): \(error); run again to continue")
    exit(1)
default:
    print("\(file): \(state)")
    exit(1)
}
