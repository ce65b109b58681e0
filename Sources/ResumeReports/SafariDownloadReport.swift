import Foundation
import ResumeDataCodec
import ResumeScan

/// A Safari `NAME.download` bundle's `Info.plist` as reports show it: one JSON shape for `scan`
/// and `inspect`, and the text lines. Where the layout is the modern one, the report says that no
/// validator is known to be kept: the key list comes from third-party parsers (spec §10).
package enum SafariDownloadReport {
    package static func json(for info: SafariDownloadInfo) -> JSONValue {
        .object([
            ("layout", .string(info.layout.rawValue)),
            ("url", .optionalString(info.url)),
            ("bytesReceived", info.bytesReceived.map(JSONValue.integer) ?? .null),
            ("totalBytes", info.totalBytes.map(JSONValue.integer) ?? .null),
            ("entityTag", .optionalString(info.entityTag)),
            ("lastModified", .optionalString(info.lastModified)),
            ("path", .optionalString(info.path)),
            ("identifier", .optionalString(info.identifier)),
            ("sandboxIdentifier", .optionalString(info.sandboxIdentifier)),
            ("dateAdded", info.dateAdded.map { .string(DateText.text($0)) } ?? .null),
            ("dateFinished", info.dateFinished.map { .string(DateText.text($0)) } ?? .null),
            ("errorCode", info.errorCode.map(JSONValue.integer) ?? .null),
            ("problems", .array(info.problems.map(JSONValue.string))),
        ])
    }

    /// Where a bundle's entry is in a `Downloads.plist`: `path`, `index` (in that file's
    /// `entries` in `scan --json`), `keyPath` (in the plist).
    package static func json(for entry: ScanInventory.SafariHistoryEntry) -> JSONValue {
        .object([("path", .string(entry.path)), ("index", .integer(Int64(entry.index))), ("keyPath", .string(entry.keyPath))])
    }

    /// `Safari download history PATH: N entries`, then one line per entry (URL, bytes, when
    /// added, where to) and the entries left out.
    static func lines(for file: ScanInventory.SafariHistoryFile) -> [String] {
        let count = file.history.entries.count
        var lines = ["Safari download history \(VisibleText.escaping(file.path)): \(ByteCount.grouping(Int64(count))) entr\(count == 1 ? "y" : "ies")"]
        for entry in file.history.entries {
            var line = "  " + VisibleText.escaping(entry.url ?? "no URL")
            if let received = entry.bytesReceived {
                line += ", " + ByteCount.describe(received) + (entry.totalBytes.map { " of " + ByteCount.describe($0) } ?? "")
            }
            if let date = entry.dateAdded { line += ", added " + DateText.text(date) }
            if let date = entry.dateFinished { line += ", finished " + DateText.text(date) }
            if let path = entry.path { line += ", to " + VisibleText.escaping(path) }
            lines.append(line)
            for problem in entry.problems { lines.append("    warning: " + VisibleText.escaping(problem)) }
        }
        for problem in file.history.problems { lines.append("  warning: " + VisibleText.escaping(problem)) }
        return lines
    }

    /// `label:` and value lines, each value escaped; `indent` before each.
    package static func lines(for info: SafariDownloadInfo, indent: String) -> [String] {
        var lines: [String] = []
        func field(_ label: String, _ value: String) {
            lines.append(indent + (label + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + VisibleText.escaping(value))
        }
        field("Safari download", info.layout == .modern ? "Info.plist (modern layout)" : "Info.plist (legacy layout, NSURLDownload)")
        field("download URL", info.url ?? "-")
        let received = info.bytesReceived.map(ByteCount.describe) ?? "-"
        field("bytes received", received + (info.totalBytes.map { " of " + ByteCount.describe($0) } ?? ""))
        if info.layout == .legacy {
            let validators = [info.entityTag.map { "ETag " + $0 }, info.lastModified.map { "Last-Modified " + $0 }].compactMap { $0 }
            field("validator", validators.isEmpty ? "none" : validators.joined(separator: ", "))
        } else {
            field("validator", "none (no key of the modern layout is known to hold one)")
        }
        if let path = info.path { field("destination", path) }
        if let identifier = info.identifier { field("identifier", identifier) }
        if let date = info.dateAdded { field("added", DateText.text(date)) }
        if let date = info.dateFinished { field("finished", DateText.text(date)) }
        if let code = info.errorCode { field("error code", String(code)) }
        for problem in info.problems { lines.append(indent + "warning: " + VisibleText.escaping(problem)) }
        return lines
    }
}
