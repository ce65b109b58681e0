import ArgumentParser
import ResumeDataCodec

/// `--strict`, for every command that reads a property list.
///
/// By default a key given twice in one dictionary keeps its last value with a warning, as Apple's
/// reader, plistlib and libplist do: a converter stricter than the system that wrote the file
/// only gets in the way. `--strict` makes it an error, for checking files before they ship.
struct StrictReading: ParsableArguments {
    @Flag(name: .long, help: "Refuse a property list that holds a key twice in one dictionary (by default the last value is kept, as Apple's reader does, with a warning).")
    var strict = false

    /// The reader options the flag stands for.
    var options: PropertyListReadOptions { strict ? .strict : .default }
}

extension Diagnostic {
    /// The reader's warnings (``PropertyListReader/Document/warnings``) as diagnostics for `file`.
    static func warnings(_ warnings: [PropertyListError], file: String) -> [Diagnostic] {
        warnings.map { warning in
            var diagnostic = Diagnostic(file: file, warning)
            diagnostic.severity = .warning
            return diagnostic
        }
    }
}
