import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeSystemCalls
import ResumeTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives tasks for the commands: progress output, Ctrl-C / SIGTERM as pause, final message,
/// exit status (0 completed, 1 failed, 130 / 143 paused by a signal).
struct TransferConsole {
    var quiet: Bool
    /// How to continue after a pause or failure; nil: "run the same command again".
    var continueHint: ((DownloadTask) -> String)? = nil
    /// `-o -`: the payload has standard output, so the final line goes to standard error, and
    /// nothing is kept to continue (``StagedOutput``).
    var staged = false

    /// One download of a run.
    struct Transfer: Sendable {
        var task: DownloadTask
        var url: HTTPURL?
        var label: String
    }

    func run(_ task: DownloadTask, label: String) async -> Int32 {
        await self.run([Transfer(task: task, url: task.url, label: label)], json: false, interactive: true)
    }

    /// Reports every transfer (JSON lines, or text: a redrawn bar on a terminal only when one
    /// download runs at a time), waits for all, and returns the worst exit status.
    func run(_ transfers: [Transfer], json: Bool, interactive: Bool) async -> Int32 {
        let signals = SignalPause(tasks: transfers.map(\.task))
        defer { signals.stop() }
        let terminal = interactive && Terminal.isTerminal(STDERR_FILENO)
        let quiet = self.quiet
        await withTaskGroup(of: Void.self) { group in
            for transfer in transfers {
                if json {
                    group.addTask {
                        var lines = TransferJSONLines(url: transfer.url, file: transfer.label)
                        Self.output(lines.start())
                        for await event in transfer.task.events {
                            if let line = lines.line(for: event, at: .now) { Self.output(line) }
                        }
                    }
                } else if !quiet {
                    group.addTask {
                        var text = DownloadConsoleText(label: transfer.label, interactive: terminal)
                        for await event in transfer.task.events {
                            if let line = text.text(for: event, at: .now) { StandardStream.write(line) }
                        }
                        if let end = text.end() { StandardStream.write(end) }
                    }
                }
            }
        }
        var status: Int32 = 0
        for transfer in transfers {
            let state = await transfer.task.result()
            let code = self.finish(transfer.task, state: state, label: transfer.label, signal: signals.received)
            if code > status { status = code }
        }
        return status
    }

    func finish(_ task: DownloadTask, state: DownloadState, label: String, signal: Int32?) -> Int32 {
        switch state {
        case .completed:
            self.say(DownloadConsoleText.completed(label: label, existing: task.existingFile))
            return 0
        case .paused, .cancelled:
            Self.error(DownloadConsoleText.paused(label: label, leftover: self.leftover(of: task)))
            return signal.map { 128 + $0 } ?? 1
        case .failed(let error):
            Self.error(DownloadConsoleText.failed(label: label, error: error, leftover: self.leftover(of: task)))
            return 1
        case .queued, .running:
            return 1
        }
    }

    /// What a stopped task left to continue: its resume data when it wrote some (a `resume`
    /// stopped before the server answered wrote none: its input continues it as before).
    private func leftover(of task: DownloadTask) -> DownloadConsoleText.Leftover {
        if self.staged { return .nothing }
        guard FileManager.default.fileExists(atPath: task.resumeDataPath) else { return .none }
        return .partial(hint: self.hint(task), resumeData: task.resumeDataPath)
    }

    private func hint(_ task: DownloadTask) -> String {
        self.continueHint?(task) ?? "run the same command again to continue"
    }

    private func say(_ text: String) {
        if !self.quiet { StandardStream.write(text + "\n", to: self.staged ? STDERR_FILENO : STDOUT_FILENO) }
    }

    /// Writes a JSON line (`--json`) on standard output.
    private static func output(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { StandardStream.write($0, to: STDOUT_FILENO) }
    }

    static func error(_ text: String) {
        StandardStream.write(text + "\n")
    }
}
