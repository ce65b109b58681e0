import ArgumentParser
import ResumeDataCodec

/// A `scan` option's value that names a file (`--html`, `--password-file`), read back from the
/// text ``RawArguments`` gave the parser: an argument holding `\x{` reached the parser spelled
/// (`\x{5c}x{`), and is its own text again here. One that is not UTF-8 keeps its spelling, and
/// is refused before the command runs (only a DIR may be such a path).
struct ScanOptionText: ExpressibleByArgument, Equatable {
    /// The value as it was given.
    let text: String

    init(argument: String) {
        text = EvidenceName.bytes(ofPath: argument).flatMap { String(validating: $0, as: UTF8.self) } ?? argument
    }
}
