import Foundation
import ResumeReports
import ResumeDataCodec

extension ArchiveTreeReport {
    /// Reads FILE (or standard input) and resolves it; a failure becomes a diagnostic with the
    /// byte position or key path. Kept apart from the report so the fuzzing harness can compile
    /// the report without the CLI's input and diagnostic types.
    init(_ argument: String) throws(Diagnostic) {
        let input = InputFile(argument)
        let bytes = try input.read()
        do {
            try self.init(name: input.displayName, bytes: bytes)
        } catch let error as KeyedArchiveError {
            if let underlying = error.underlying { throw Diagnostic(file: input.displayName, underlying).unreadableInput }
            throw Diagnostic(file: input.displayName, message: error.description).unreadableInput
        } catch {
            throw Diagnostic(file: input.displayName, message: "\(error)").unreadableInput
        }
    }
}
