import ArgumentParser

/// The blobs `inspect` and `validate` work on: names, folders and a `--files-from` list.
struct BlobArguments: ParsableArguments {
    @Option(name: .customLong("files-from"), help: ArgumentHelp(
        "Also read the blobs named in FILE, one per line (- for standard input).", valueName: "FILE"), completion: .file())
    var filesFrom: String?

    @Argument(help: "Resume blobs (- reads standard input); a folder stands for the files directly inside it.",
              completion: .file())
    var blobs: [String] = []

    /// The names given: those the parser saw, then those taken out before it (``PositionalNames``).
    var names: [String] { self.blobs + PositionalNames.names }

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
