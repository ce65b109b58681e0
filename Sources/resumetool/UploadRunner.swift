import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeReports
import ResumeTransfer

/// Runs an ``UploadJob`` for `upload` and `resume`, says what happened on standard error, and
/// ends with the status of the one ``ExitStatus`` table.
enum UploadRunner {
    static func run(_ job: UploadJob, settings: UploadSettings, continueHint: String) async throws {
        let quiet = settings.quiet
        let verbose = settings.verbose && !quiet
        let file = job.file
        do {
            let outcome = try await job.run(onNote: { note in
                guard !quiet else { return }
                switch note {
                case .continuing(let url): StandardStream.write("\(VisibleText.escaping(file)): continuing the upload at \(VisibleText.escaping("\(url)"))\n")
                case .uncheckedFile:
                    Diagnostic(file: file, severity: .warning, message: "the blob has no identity record beside it (a device's blob): the file cannot be proven to be the one the upload started with").emit()
                }
            }, onEvent: { event in
                guard verbose else { return }
                StandardStream.write(Self.lines(event, file: file))
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
            case .fileChanged, .checkpoint, .beyondServerLimit: (status, continuable) = (.failure, false)
            case .transfer, .offsetBeyondFile, .offsetBeyondSent, .completeAtOtherLength, .malformedAnswer, .tooManyRestarts:
                (status, continuable) = (.failure, true)
            }
            Diagnostic(file: file, message: error.description).emit()
            if continuable, FileManager.default.fileExists(atPath: job.checkpoint.blobPath), !quiet {
                StandardStream.write("continue with: \(continueHint)\n")
            }
            throw status.code
        }
    }

    /// What `-v` prints for `event`: heads as `download -v` prints them (``HTTPHeadText``, curl's
    /// way), every other event as one line naming the file.
    static func lines(_ event: UploadEvent, file: String) -> String {
        switch event {
        case .request(let method, let url, let headers): HTTPHeadText.request(method: method, url: url, headers: headers)
        case .response(let status, let headers): HTTPHeadText.response(status: status, headers: headers)
        case .resumable(let url): "\(VisibleText.escaping(file)): resumable at \(VisibleText.escaping(url.string))\n"
        case .notResumable(let reason): "\(VisibleText.escaping(file)): not resumable: \(VisibleText.escaping(reason))\n"
        case .offset(let offset): "\(VisibleText.escaping(file)): the server has \(offset) bytes; sending from there\n"
        case .retrying(let attempt, let delay, let reason): TransferLineText.retrying(label: file, reason: "\(reason)", attempt: attempt, delay: delay)
        case .restarting(let status): "\(VisibleText.escaping(file)): the server forgot the upload (HTTP \(status)); creating it again\n"
        }
    }
}
