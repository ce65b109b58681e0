import ResumeDataCodec
import ResumeTransfer

/// What `upload` and `resume --file` print on standard error for an upload's steps: heads as
/// `download -v` prints them (``HTTPHeadText``, curl's way), every other step as one line naming
/// the file, a retry as a download's (``TransferLineText``). Every text from outside is escaped.
package enum UploadConsoleText {
    /// The `-v` text for `event`.
    package static func text(for event: UploadEvent, file: String) -> String {
        let label = VisibleText.escaping(file)
        return switch event {
        case .request(let method, let url, let headers): HTTPHeadText.request(method: method, url: url, headers: headers)
        case .response(let status, let headers): HTTPHeadText.response(status: status, headers: headers)
        case .resumable(let url): "\(label): resumable at \(VisibleText.escaping(url.shown))\n"
        case .notResumable(let reason): "\(label): not resumable: \(VisibleText.escaping(reason))\n"
        case .offset(let offset): "\(label): the server has \(offset) bytes; sending from there\n"
        case .retrying(let attempt, let delay, let reason): TransferLineText.retrying(label: file, reason: "\(reason)", attempt: attempt, delay: delay)
        case .restarting(let status): "\(label): the server forgot the upload (HTTP \(status)); creating it again\n"
        }
    }

    /// The last line of an upload that ended well: where it went (and where the rest went, when
    /// the server's resume URL is on another origin than `url`, the one the user gave), the
    /// final status, and the bytes: those sent when they are the file, else both counts, so that
    /// resent bytes or a run that only finished an earlier one's upload are not read as the size.
    package static func finished(file: String, url: HTTPURL, outcome: ResumableUploader.Outcome) -> String {
        var line = "\(VisibleText.escaping(file)): uploaded to \(VisibleText.escaping(url.shown))"
        if let other = outcome.continuedAt, !other.hasSameOrigin(as: url) {
            line += ", the rest to \(VisibleText.escaping(other.shown)) (the server's resume URL, on another origin)"
        }
        let bytes: String
        if outcome.bytesSent == outcome.fileSize {
            bytes = "\(outcome.bytesSent) bytes sent"
        } else if outcome.bytesSent < outcome.fileSize {
            bytes = "\(outcome.bytesSent) of \(outcome.fileSize) bytes sent in this run"
        } else {
            bytes = "\(outcome.bytesSent) bytes sent for a \(outcome.fileSize)-byte file, resent ones included"
        }
        let resumed = outcome.resumptions == 0 ? "" : ", continued \(outcome.resumptions) time\(outcome.resumptions == 1 ? "" : "s")"
        return line + " (HTTP \(outcome.status), \(bytes)\(resumed))\n"
    }

    /// The line that says an earlier run's upload goes on at `url`.
    package static func continuing(file: String, at url: String) -> String {
        "\(VisibleText.escaping(file)): continuing the upload at \(VisibleText.escaping(url))\n"
    }
}
