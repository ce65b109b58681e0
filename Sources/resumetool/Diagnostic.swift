import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeDataCodec
import ResumeTransfer

/// A problem with one input, printed like a compiler diagnostic:
/// `FILE:3:17: error: …`, `FILE: byte 0x1a4: error: …`, or `FILE: error: …`.
struct Diagnostic: Error, CustomStringConvertible {
    enum Severity: String {
        case error, warning, note
    }

    var file: String
    /// `3:17` or `byte 0x1a4`, when known.
    var position: String?
    var severity: Severity = .error
    var message: String
    /// The status a command ends with when this stops it (``reportingDiagnostics(_:)``).
    var status: ExitStatus = .failure

    init(file: String, position: String? = nil, severity: Severity = .error, message: String) {
        self.file = file
        self.position = position
        self.severity = severity
        self.message = message
    }

    /// A diagnostic for a property-list error, keeping its position.
    init(file: String, _ error: PropertyListError) {
        self.init(file: file, position: error.locationDescription, message: error.message)
    }

    /// The line, with the file name and the message through the one escaper: either may quote a
    /// blob, a ledger or an argument, and text already escaped passes through it unchanged.
    var description: String {
        let file = VisibleText.escaping(file)
        let message = VisibleText.escaping(message)
        return switch position {
        case .some(let position) where position.first?.isNumber == true:
            "\(file):\(position): \(severity.rawValue): \(message)"
        case .some(let position):
            "\(file): \(position): \(severity.rawValue): \(message)"
        case .none:
            "\(file): \(severity.rawValue): \(message)"
        }
    }

    /// Reports a bad option value found only once the library looked at it, the way
    /// ArgumentParser reports the ones `validate()` finds, and returns exit status 64 to throw.
    /// (A `ValidationError` thrown from `run()` would print the top command's usage instead.)
    static func usageError(_ message: String, command: String) -> ExitCode {
        StandardStream.write("Error: \(VisibleText.escaping(message))\n  See 'resumetool \(command) --help' for more information.\n")
        return ExitStatus.usage.code
    }

    /// The same diagnostic, ending the command with status 2: the input it names could not be read.
    var unreadableInput: Diagnostic {
        var copy = self
        copy.status = .unreadableInput
        return copy
    }

    /// Writes the diagnostic as one line on standard error.
    func emit() {
        StandardStream.write(description + "\n")
    }
}
