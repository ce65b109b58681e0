import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeReports
import ResumeTransfer

/// Runs an ``UploadJob`` for `upload` and `resume`, says what happened on standard error, and
/// ends with the status of the one ``ExitStatus`` table.
enum UploadRunner {
    /// Where the upload of `file` keeps its checkpoint (``UploadCheckpoint/place(for:stateDirectory:environment:calls:)``),
    /// said once when it is not beside the file; nowhere is exit status 1 before any request.
    static func checkpoint(for file: String, stateDirectory: String?, quiet: Bool) throws -> UploadCheckpoint {
        let checkpoint: UploadCheckpoint
        do {
            checkpoint = try UploadCheckpoint.place(for: file, stateDirectory: stateDirectory, environment: ProcessInfo.processInfo.environment)
        } catch {
            Diagnostic(file: file, message: error.description).emit()
            throw ExitStatus.failure.code
        }
        if !quiet, checkpoint.blobPath != UploadCheckpoint.beside(file: file).blobPath {
            StandardStream.write("\(VisibleText.escaping(file)): the upload's checkpoint is kept in \(VisibleText.escaping(checkpoint.blobPath))\n")
        }
        return checkpoint
    }

    /// - Parameters:
    ///   - label: what the messages call the file (`<stdin>` for `upload -`); the job's file by default.
    ///   - continueHint: the command that continues the upload after a failure it can be continued
    ///     from; nil when none can (`upload -`).
    ///   - startOverHint: what uploads the file as it is now, once it changed since the upload
    ///     started; nil when nothing can.
    static func run(_ job: UploadJob, settings: UploadSettings, label: String? = nil, continueHint: String?, startOverHint: String? = nil) async throws {
        let quiet = settings.quiet
        let verbose = settings.verbose && !quiet
        let file = label ?? job.file
        // Ctrl-C and SIGTERM pause, as for a download: the run is cancelled, its checkpoint kept.
        let work = Task { () async throws -> ResumableUploader.Outcome in
            try await job.run(onNote: { note in
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
        }
        let signals = SignalPause { work.cancel() }
        defer { signals.stop() }
        do {
            let outcome = try await work.value
            if !quiet { StandardStream.write(UploadConsoleText.finished(file: file, url: job.url, outcome: outcome)) }
        } catch {
            if let signal = signals.received {
                let kept = FileManager.default.fileExists(atPath: job.checkpoint.blobPath)
                let hint = kept ? continueHint.map { "; continue with: \($0)" } ?? "" : ""
                StandardStream.write("\(VisibleText.escaping(file)): paused\(hint)\n")
                throw ExitCode(128 + signal)
            }
            // The job throws nothing else; a cancelled task with no signal cannot happen here.
            let error = (error as? UploadError) ?? .transfer(.cancelled)
            let status: ExitStatus
            let continuable: Bool
            switch error {
            case .unreadableFile: (status, continuable) = (.unreadableInput, false)
            case .fileChanged, .checkpoint, .beyondServerLimit, .cannotCreateAgain: (status, continuable) = (.failure, false)
            case .transfer, .offsetBeyondFile, .offsetBeyondSent, .completeAtOtherLength, .malformedAnswer, .tooManyRestarts:
                (status, continuable) = (.failure, true)
            }
            Diagnostic(file: file, message: error.description).emit()
            if case .fileChanged = error, let startOverHint, !quiet {
                StandardStream.write("to upload the file as it is now: \(startOverHint)\n")
            }
            if continuable, let continueHint, FileManager.default.fileExists(atPath: job.checkpoint.blobPath), !quiet {
                StandardStream.write("continue with: \(continueHint)\n")
            }
            throw status.code
        }
    }
}
