import Foundation
import ResumeDataCodec

/// Where a download starts: a blob beside the destination, a lone partial file, a finished
/// destination, or nothing; each decided by ``TrustPolicy``'s rules before any request.
extension DownloadTask {
    /// The checkpoint to start from; nil when the destination is already complete.
    func prepare() -> Result<DownloadCheckpoint?, DownloadError> {
        if let expected = self.expectedSHA256, SHA256Hex(expected) == nil { return .failure(.invalidChecksum(expected)) }
        switch self.origin {
        case .checkpoint(let checkpoint):
            return .success(checkpoint)
        case .url(let url, let headers):
            guard TrustPolicy.origin(of: url) != nil else { return .failure(.invalidURL(url)) }
            if self.files.exists(self.destination), !self.files.exists(self.partialPath) {
                // Completed earlier; a blob left beside it means the process died between the
                // rename and the blob's removal.
                self.files.remove(self.resumeDataPath)
                return .success(nil)
            }
            let fresh = DownloadCheckpoint(originalURL: url, currentURL: url, extraHeaders: headers)
            if let blob = self.files.contents(of: self.resumeDataPath) {
                var checkpoint: DownloadCheckpoint
                do {
                    checkpoint = try ResumeCheckpoint.decode(blob).checkpoint
                } catch {
                    return .failure(error)
                }
                guard Self.sameURL(checkpoint.originalURL, url) else {
                    // Another download's leftovers: never continue a file the user did not ask for.
                    self.continuation.yield(.warning(
                        "\(self.resumeDataPath) is for \(checkpoint.originalURL), not \(url); starting over"))
                    return .success(fresh)
                }
                checkpoint.extraHeaders = headers
                return .success(checkpoint)
            }
            if let size = self.files.size(of: self.partialPath), size > 0 {
                // A partial file without a blob: nothing proves it is a prefix of the server's file,
                // so the first response is compared with its last bytes before anything is appended.
                var unproven = fresh
                unproven.bytesReceived = size
                return .success(unproven)
            }
            return .success(fresh)
        }
    }

    private static func sameURL(_ first: String, _ second: String) -> Bool {
        first == second || URL(string: first)?.absoluteString == URL(string: second)?.absoluteString
    }
}
