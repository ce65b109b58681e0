import ResumeDataCodec
import ResumeTransfer

extension DownloadConsoleText {
    /// What is left to continue a download that stopped.
    package enum Leftover: Sendable, Equatable {
        /// `-o -`: the payload went to standard output; nothing is kept.
        case nothing
        /// The partial download and its resume data are kept; `hint` says how to go on.
        case partial(hint: String, resumeData: String)
        /// Nothing was written yet (the download failed before its first checkpoint).
        case none
    }

    /// The line for a download that completed; `existing` says why nothing was fetched.
    package static func completed(label: String, existing: ExistingFile?) -> String {
        let label = VisibleText.escaping(label)
        return switch existing {
        case nil: "\(label): done"
        case .matchesChecksum: "\(label) is already complete (its SHA-256 matches); nothing to do"
        case .finishedEarlier: "\(label) is already complete (an earlier run finished it); nothing to do"
        case .unchecked: "\(label) exists and was left as it is, unchecked; nothing downloaded"
        }
    }

    /// The line for a download paused (by a signal, or cancelled).
    package static func paused(label: String, leftover: Leftover) -> String {
        let label = VisibleText.escaping(label)
        return switch leftover {
        case .nothing: "\(label): paused; \(nothingKept)"
        case .none: "\(label): paused"
        case .partial(let hint, let resumeData): "\(label): paused; \(hint) (resume data in \(VisibleText.escaping(resumeData)))"
        }
    }

    /// The lines for a download that failed: the error (which may quote the server), then what
    /// is kept to continue.
    package static func failed(label: String, error: TransferError, leftover: Leftover) -> String {
        let label = VisibleText.escaping(label)
        var message = "\(label): error: \(VisibleText.escaping("\(error)"))"
        if case .destinationExists = error {
            message += "\n\(label): save it under another name (-o FILE), or replace the file there with --force"
        }
        return switch leftover {
        case .nothing: message + "\n\(label): \(nothingKept)"
        case .partial(let hint, _): message + "\n\(label): the partial download is kept; \(hint)"
        case .none: message
        }
    }

    private static let nothingKept = "nothing is kept with -o - (-o FILE makes a download that can be continued)"
}
