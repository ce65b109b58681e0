import ArgumentParser

/// The one table of exit statuses, the same for every command, so a script tests a status without
/// knowing which command it ran: each command's help names what 0 and 1 mean for it and lists the
/// others it can end with, always in these words.
enum ExitStatus: Int32, CaseIterable {
    /// The command did what was asked (validate: no finding of severity error; explain: continue).
    case success = 0
    /// The command ran and the answer is no: a finding, a verdict other than continue, a failed
    /// download, an output that could not be written.
    case failure = 1
    /// An input named on the command line could not be read or is not what it must be: no such
    /// file, no permission, not a property list, not resume data.
    case unreadableInput = 2
    /// A server that had to be asked could not be (explain --probe).
    case serverUnreachable = 3
    /// ArgumentParser's status for a bad command line, which the commands reuse for bad values
    /// they find only later (``Diagnostic/usageError(_:command:)``).
    case usage = 64
    /// Ctrl-C (downloads pause and continue when run again; scan prints what it found).
    case interrupted = 130
    /// SIGTERM (downloads pause).
    case terminated = 143

    /// What the status means whatever the command; 0 and 1 are said per command.
    var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .unreadableInput: "an input could not be read (no such file, no permission, not what it must be)"
        case .serverUnreachable: "the server could not be asked"
        case .usage: "usage error"
        case .interrupted: "stopped by Ctrl-C"
        case .terminated: "stopped by SIGTERM"
        }
    }

    /// The status to throw from `run()`.
    var code: ExitCode { ExitCode(rawValue) }

    /// The `Exit status:` paragraph of a command's help: what 0 and 1 mean for that command, then
    /// the shared meaning of each other status it can end with (2 and 64 for every command); a
    /// nil `failure` for a command that never ends with 1.
    static func help(success: String, failure: String?, also: [ExitStatus] = []) -> String {
        var parts = ["0 \(success)"]
        if let failure { parts.append("1 \(failure)") }
        for status in ([.unreadableInput, .usage] + also).sorted(by: { $0.rawValue < $1.rawValue }) {
            parts.append("\(status.rawValue) \(status.meaning)")
        }
        return "Exit status: " + parts.joined(separator: "; ") + "."
    }

    /// The whole table, for `resumetool --help` and the top of the man page.
    static var table: String {
        "Exit status: " + allCases.map { status in
            let meaning = switch status {
            case .success: "success (validate: no finding of severity error; explain: the download would continue)"
            case .failure: "failure (a finding of severity error, a verdict of restart or fail, a failed download, an output that could not be written)"
            default: status.meaning
            }
            return "\(status.rawValue) \(meaning)"
        }.joined(separator: "; ") + ". The same table holds for every command."
    }
}
