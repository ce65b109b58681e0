import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeScan

extension InspectCommand {
    /// A Safari `NAME.download` bundle's report, text or JSON: not a resume blob, but what an
    /// examiner inspects beside them.
    static func safariBundle(_ path: String, json: Bool, indent: Int) throws(Diagnostic) -> [UInt8] {
        // Hashed within the limit scan has by default: a sparse or huge partial file is described.
        let bundle = try readBundle(path, hashing: .standard)
        if json {
            let partial: JSONValue = bundle.partialFile.map { file in
                .object([
                    ("name", .string(file.name)),
                    ("size", .integer(file.status.size)),
                    ("sha256", .optionalString(file.sha256)),
                    ("modified", .string(DateText.text(file.status.modified))),
                    ("hashSkipped", HashSkipText.json(file.hashSkipped)),
                ])
            } ?? .null
            var bytes: [UInt8] = []
            JSONValue.object([("file", .string(path)), ("safariDownload", SafariDownloadReport.json(for: bundle.info)), ("partialFile", partial)])
                .write(to: &bytes, indent: indent)
            return bytes
        }
        var lines = ["\(VisibleText.escaping(path)): a Safari download bundle"]
        lines += SafariDownloadReport.lines(for: bundle.info, indent: "  ")
        if let file = bundle.partialFile {
            lines.append("  partial file:     \(VisibleText.escaping(file.name)), \(ByteCount.describe(file.status.size))"
                         + ScanReport.comparison(file.status.size, bundle.info.bytesReceived))
            lines.append("  SHA-256:          \(file.sha256 ?? file.hashSkipped.map(HashSkipText.sentence) ?? "-")")
            lines.append("  modified:         \(DateText.text(file.status.modified))")
        } else {
            lines.append("  partial file:     none in the bundle")
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// The bundle at `path` as `inspect`, `validate` and `resume` read it, or why not, said of
    /// the bundle; its partial file hashed within `hashing` (nil: not at all, where the hash
    /// decides nothing).
    static func readBundle(_ path: String, hashing: HashLimit? = nil) throws(Diagnostic) -> SafariDownloadBundle {
        do {
            return try SafariDownloadBundle(path: path, hashing: hashing)
        } catch {
            throw Diagnostic(file: path, message: error.description)
        }
    }
}
