import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeReports
import ResumeTransfer

/// Runs an ``UploadJob`` for `upload` and `resume`, says what happened on standard error, and
/// ends with the status of the one ``ExitStatus`` table.
enum UploadRunner {
    /// - Parameters:
    ///   - label: what the messages call the file (`<stdin>` for `upload -`); the job's file by default.
    ///   - continueHint: the command that continues the upload after a failure it can be continued
    ///     from; nil when none can (`upload -`).
    static func run(_ job: UploadJob, settings: UploadSettings, label: String? = nil, continueHint: String?) async throws {
        let quiet = settings.quiet
        let verbose = settings.verbose && !quiet
        let file = label ?? job.file
        do {
            let outcome = try await job.run(onNote: { note in
                guard !quiet else { return }
                switch note {
                case .continuing(let url): StandardStream.write(UploadConsoleText.continuing(file: file, at: url))
                case .uncheckedFile:
                    Diagnostic(file: file, severity: .warning, message: "the blob has no identity record beside it (a device's blob): the file cannot be proven to be the one the upload started with").emit()
                }
            }, onEvent: { event in
                guard verbose else { return }
                StandardStream.write(UploadConsoleText.text(for: event, file: file))
            })
            if !quiet {
                let resumed = outcome.resumptions == 0 ? "" : ", continued \(outcome.resumptions) time\(outcome.resumptions == 1 ? "" : "s")"
                StandardStream.write("\(VisibleText.escaping(file)): uploaded to \(VisibleText.escaping(job.url.string)) (HTTP \(outcome.status), \(outcome.bytesSent) bytes sent\(resumed))\n")
            }
        } catch {
            let status: ExitStatus
            let continuable: Bool
            switch error {
            case .unreadableFile: (status, continuable) = (.unreadableInput, false)
            case .fileChanged, .checkpoint, .beyondServerLimit, .cannotCreateAgain: (status, continuable) = (.failure, false)
            case .transfer, .offsetBeyondFile, .offsetBeyondSent, .completeAtOtherLength, .malformedAnswer, .tooManyRestarts:
                (status, continuable) = (.failure, true)
            }
            Diagnostic(file: file, message: error.description).emit()
            if continuable, let continueHint, FileManager.default.fileExists(atPath: job.checkpoint.blobPath), !quiet {
                StandardStream.write("continue with: \(continueHint)\n")
            }
            throw status.code
        }
    }
}
