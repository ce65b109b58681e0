import ArgumentParser

/// The blobs `inspect` and `validate` work on: names, folders and a `--files-from` list.
struct BlobArguments: ParsableArguments {
    @Option(name: .customLong("files-from"), help: ArgumentHelp(
        "Also read the blobs named in FILE, one per line (- for standard input).", valueName: "FILE"), completion: .file())
    var filesFrom: String?

    @Argument(help: "Resume blobs (- reads standard input); a folder stands for the files directly inside it.",
              completion: .file())
    var blobs: [String] = []

    /// The names taken out of the command line before parsing (``PositionalNames``), set on
    /// the parsed command; the parser saw their stand-ins in ``blobs``.
    var taken = TakenNames()

    /// The names given: all of them in order, whether the parser saw them or their stand-ins.
    var names: [String] { taken.names ?? blobs }

    func validate() throws {
        guard !names.isEmpty || filesFrom != nil else { throw ValidationError("give at least one BLOB, or --files-from") }
        if filesFrom == "-", names.contains("-") {
            throw ValidationError("standard input cannot be both a BLOB and the --files-from list")
        }
    }

    /// The names with folders and the list expanded; an unreadable folder or list is reported
    /// on stderr and ends the command with status 2.
    func list() throws -> BlobList {
        do {
            return try BlobList(arguments: names, filesFrom: filesFrom)
        } catch {
            error.emit()
            throw ExitStatus.unreadableInput.code
        }
    }
}

/// The blob names ``PositionalNames`` took, carried on the parsed command. Not an argument: the
/// parser's decoding leaves it empty, and the entry point sets it once parsing is done.
struct TakenNames: Decodable {
    var names: [String]?

    init(_ names: [String]? = nil) {
        self.names = names
    }

    init(from decoder: any Decoder) {
        names = nil
    }
}

/// A command whose blob names ``PositionalNames`` may take out of the command line.
protocol TakesBlobNames {
    var blobs: BlobArguments { get set }
}

extension InspectCommand: TakesBlobNames {}
extension ValidateCommand: TakesBlobNames {}
