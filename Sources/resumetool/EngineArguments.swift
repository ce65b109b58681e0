import ArgumentParser
import Foundation

/// The checks behind the transfer options (`EngineOptions`, `TransferOptions`):
/// each bound and each wording once, so the two commands cannot drift apart.
enum EngineArguments {
    /// `--retries`: 0 to 100.
    static func checkRetries(_ retries: Int?, name: String = "--retries") throws {
        if let retries, !(0...100).contains(retries) { throw ValidationError("\(name) must be 0 to 100") }
    }

    /// A timeout in seconds, bounded before it becomes a Duration: `Duration.seconds(1e300)` would trap.
    static func checkSeconds(_ name: String, _ value: Double?) throws {
        if let value, !(value > 0 && value <= 86_400) { throw ValidationError("\(name) must be more than 0 and at most 86400 seconds") }
    }

    /// `--limit-rate`, as `RateArgument` reads it.
    static func checkRate(_ limitRate: String?) throws {
        if let limitRate, RateArgument.parse(limitRate) == nil {
            throw ValidationError("--limit-rate takes bytes per second from 1 to 1T, e.g. 500k or 2M")
        }
    }

    /// `--cacert` must be readable: exit status 2 when not, as for any input.
    static func checkCertificateFile(_ cacert: String?) throws {
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
            Diagnostic(file: cacert, message: "cannot read the certificate file").emit()
            throw ExitStatus.unreadableInput.code
        }
    }

    /// `--insecure` is warned about, naming what anyone on the path could then read and change.
    static func warnIfInsecure(_ insecure: Bool, transferred what: String) {
        if insecure {
            Diagnostic(file: "--insecure", severity: .warning,
                       message: "server certificates are not checked: anyone on the path can read and change \(what)").emit()
        }
    }
}
