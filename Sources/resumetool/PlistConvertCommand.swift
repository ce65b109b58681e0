import ArgumentParser
import Foundation
import ResumeReports
import ResumeDataCodec
import ResumeSupport

/// `resumetool plist convert --to xml|binary|json FILE [-o OUT]`
struct PlistConvertCommand: AsyncParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case xml, binary, json
    }

    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a property list to XML, binary or JSON.",
        discussion: """
            The output file is replaced atomically; nothing is written when the input is rejected. Binary output is refused on a terminal. JSON spells data as base64, dates as ISO 8601 and UIDs as {"CF$UID": n}.

            Example:
              resumetool plist convert --to xml resume.bplist -o resume.plist

            \(ExitStatus.help(success: "converted", failure: "the output cannot be written"))
            """
    )

    @Option(name: .long, help: "The output format: xml, binary or json.")
    var to: Target

    @Flag(name: .long, help: "Sort dictionary keys in XML and JSON output, as Apple's XML writer does.")
    var sortKeys = false

    @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
    var output: String?

    @Argument(help: "The property list to read, or - for standard input.", completion: .file())
    var file: String

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let destination = OutputFile(output)
            try destination.checkCanReceive(binary: to == .binary)
            var value = try InputFile(file).readPropertyList(options: reading.options)
            if sortKeys { value = Self.sortingKeys(value) }
            let bytes: Data
            do {
                switch to {
                case .xml: bytes = try PropertyListWriter().write(value, as: .xml)
                case .binary: bytes = try PropertyListWriter().write(value, as: .binary)
                case .json:
                    var notes: [String] = []
                    bytes = Data(PropertyListJSON.json(for: value, path: "", notes: &notes).rendered().utf8)
                    for note in notes { Diagnostic(file: file, severity: .warning, message: note).emit() }
                }
            } catch {
                throw Diagnostic(file: destination.displayName, message: "\(error)")
            }
            // A property list may be a resume blob (credentials): 0600 when new, as every output of
            // the tool but a download; a file replaced keeps its mode (AtomicFile).
            try destination.write(bytes)
        }
    }

    private static func sortingKeys(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            var sorted = PropertyListDictionary()
            for (key, item) in dictionary.sortedByKey() { sorted[key] = sortingKeys(item) }
            return .dictionary(sorted)
        case .array(let items): return .array(items.map(sortingKeys))
        case .set(let items): return .set(items.map(sortingKeys))
        default: return value
        }
    }
}
