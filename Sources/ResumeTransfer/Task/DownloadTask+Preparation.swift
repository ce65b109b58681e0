import Foundation
import ResumeDataCodec

/// Where a download starts: a blob beside the destination, a lone partial file, a finished
/// destination, or nothing; each decided by ``TrustPolicy``'s rules before any request.
extension DownloadTask {
    /// Where to start: a checkpoint, or the verdict on a destination that exists without a
    /// partial file (nothing is downloaded then).
    enum Start {
        case download(DownloadCheckpoint)
        case existing(ExistingFile)
    }

    func prepare() -> Result<Start, DownloadError> {
        if let expected = self.expectedSHA256, SHA256Hex(expected) == nil { return .failure(.invalidChecksum(expected)) }
        // The finished file is renamed over the destination: over a device that would replace the
        // node itself (for root, `/dev/null` would become a plain file), over a folder it fails
        // only after the whole download.
        if let refusal = self.files.destinationRefusal(self.destination) { return .failure(refusal) }
        switch self.origin {
        case .checkpoint(let checkpoint):
            return .success(.download(checkpoint))
        case .refusedURL(let text):
            return .failure(.invalidURL(text))
        case .url(let url, let headers):
            if self.files.exists(self.destination), !self.files.exists(self.partialPath) {
                // Left as it is. A blob of ours for this URL beside it means a run died between
                // the final rename and the blob's removal: the blob goes, and may vouch for it.
                let beside = self.files.contents(of: self.resumeDataPath)
                    .flatMap { try? ResumeCheckpoint.decode($0).checkpoint }
                    .flatMap { Self.sameURL($0.originalURL, url) ? $0 : nil }
                if beside != nil { self.files.remove(self.resumeDataPath) }
                return .success(.existing(ExistingFile.verdict(size: self.files.size(of: self.destination) ?? -1, checkpointBeside: beside)))
            }
            let fresh = DownloadCheckpoint(url: url, extraHeaders: headers)
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
                    return .success(.download(fresh))
                }
                checkpoint.extraHeaders = headers
                return .success(.download(checkpoint))
            }
            if let size = self.files.size(of: self.partialPath), size > 0 {
                // A partial file without a blob: nothing proves it is a prefix of the server's file,
                // so the first response is compared with its last bytes before anything is appended.
                var unproven = fresh
                unproven.bytesReceived = size
                return .success(.download(unproven))
            }
            return .success(.download(fresh))
        }
    }

    /// Whether a blob's download was started at `url`: one the rule refused never was.
    private static func sameURL(_ original: OriginalURL, _ url: HTTPURL) -> Bool {
        guard let first = original.checked else { return false }
        return first.string == url.string || first.url.absoluteString == url.url.absoluteString
    }
}
