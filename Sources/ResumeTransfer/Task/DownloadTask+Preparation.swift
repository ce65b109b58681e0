import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// Where a download starts: a blob beside the destination, a lone partial file, a finished
/// destination, or nothing; each decided by ``TrustPolicy``'s rules before any request.
extension DownloadTask {
    /// Where to start: a checkpoint, or the verdict on a destination that exists without a
    /// partial file (nothing is downloaded then).
    enum Start {
        case download(DownloadCheckpoint)
        case existing(ExistingFile)
    }

    func prepare() -> Result<Start, TransferError> {
        if let expected = self.expectedSHA256, SHA256Hex(expected) == nil { return .failure(.invalidChecksum(expected)) }
        // What may happen to the file at the destination: the one rule every command follows.
        // A refused one is left as it is, whatever the options, before any request.
        let started: HTTPURL?
        switch self.origin {
        case .checkpoint(let checkpoint): started = checkpoint.originalURL.checked
        case .url(let url, _): started = url
        case .refusedURL: started = nil
        }
        switch self.outputVerdict(url: started) {
        case .fetch:
            break
        case .refuse(let error):
            return .failure(error)
        case .leave(let existing):
            // Nothing was asked of a text the URL rule refused: it fails, whatever is there.
            if case .refusedURL(let text) = self.origin { return .failure(.invalidURL(text)) }
            if existing == .finishedEarlier {
                // A run died between the final rename and the blob's removal: the blob goes, as
                // the run would have removed it (also when it is the blob given, FILE.resume).
                self.files.remove(self.resumeDataPath)
            }
            return .success(.existing(existing))
        }
        switch self.origin {
        case .checkpoint(let checkpoint):
            return .success(.download(checkpoint))
        case .refusedURL(let text):
            return .failure(.invalidURL(text))
        case .url(let url, let headers):
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

    /// ``OutputFileRule``'s verdict on this task's destination; `url` is where the download started.
    func outputVerdict(url: HTTPURL?) -> OutputFileRule.Verdict {
        let purpose: OutputFileRule.Purpose = switch self.origin {
        case .checkpoint: .continueBlob
        case .url, .refusedURL: .fetchURL
        }
        return OutputFileRule.verdict(self.files.outputFacts(
            destination: self.destination, partialPath: self.partialPath, url: url, purpose: purpose,
            inputs: self.inputs, replacesExisting: self.configuration.replacesExistingFiles, expectedSHA256: self.expectedSHA256))
    }

    /// Whether a blob's download was started at `url`: one the rule refused never was.
    static func sameURL(_ original: OriginalURL, _ url: HTTPURL) -> Bool {
        guard let first = original.checked else { return false }
        return first.string == url.string || first.url.absoluteString == url.url.absoluteString
    }
}
