import Foundation
import ResumeDataCodec
import ResumeScan

/// `scan --timeline`: a CSV that Timesketch imports as it is (`message`, `datetime`,
/// `timestamp_desc` first), with one row per time of every finding, sorted by time: the times
/// of each blob's file and of its partial file (modified, status changed, created, as the source
/// has them), of each orphan partial file and Safari bundle's partial file, the dates a blob
/// records itself (the server's `Last-Modified`, the time its archived response was made), and
/// when Safari says each download was added and finished (its list of downloads, a bundle's
/// `Info.plist`), and of each archive met among the files.
package struct ScanTimeline {
    let inventory: ScanInventory

    package init(inventory: ScanInventory) {
        self.inventory = inventory
    }

    static let columns = [
        "message", "datetime", "timestamp_desc", "timestamp", "finding", "path", "keyPath", "bundleID",
        "sourceKind", "sourceRoot", "sourceInner", "downloadURL", "bytesReceived", "sha256", "size", "hashSkipped",
    ]

    /// One event: when, what the time is, and the finding it belongs to.
    struct Event {
        var date: Date
        var description: String
        var finding: ScanFinding
    }

    /// Every event, sorted by time; events at the same time keep the inventory's order. A date
    /// outside years 1-9999 (a hostile blob's) has no ISO 8601 spelling and is left out.
    var events: [Event] {
        var events: [Event] = []
        func add(_ date: Date?, _ description: String, _ finding: ScanFinding) {
            guard let date, ISO8601DateText.isSpellable(date) else { return }
            events.append(Event(date: date, description: description, finding: finding))
        }
        for finding in ScanFinding.all(in: inventory) {
            if let entry = finding.safariEntry {
                // The list's own times are the file's, not the download's: only its dates are events.
                add(entry.dateAdded, "Safari download added", finding)
                add(entry.dateFinished, "Safari download finished", finding)
                continue
            }
            let noun = switch finding.kind {
            case .blob, .embeddedBlob: "blob"
            case .partialFile: "partial file"
            case .orphanPartialFile: "orphan partial file"
            case .safariPartialFile, .safariHistoryEntry: "Safari bundle's partial file"
            case .archive: "archive"
            }
            add(finding.file.modified, noun + " modified", finding)
            add(finding.file.changed, noun + " status changed", finding)
            add(finding.file.created, noun + " created", finding)
            if finding.kind == .blob || finding.kind == .embeddedBlob, let resume = finding.blob?.found.resumeData {
                add(resume.effectiveServerDownloadDate.flatMap(Self.httpDate), "server Last-Modified (in the blob)", finding)
                add(resume.response?.date, "response received (in the blob)", finding)
            }
            if let info = finding.orphan?.safariDownload {
                add(info.dateAdded, "Safari download added (Info.plist)", finding)
                add(info.dateFinished, "Safari download finished (Info.plist)", finding)
            }
        }
        return events.enumerated()
            .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
            .map(\.element)
    }

    /// The rows below the header.
    var rows: [[String]] {
        events.map { event in
            let finding = event.finding
            let resume = finding.blob?.found.resumeData
            let safari = finding.safariEntry ?? finding.orphan?.safariDownload
            let keyPath = finding.historyEntry.map { $0.history.history.keyPaths[$0.index] } ?? finding.blob?.keyPath
            return [
                message(event), DateText.text(event.date), event.description,
                Self.microseconds(event.date),
                finding.kind.rawValue, finding.path, finding.kind == .orphanPartialFile ? "" : keyPath ?? "",
                finding.bundleID ?? "", finding.file.source.kind.rawValue, finding.file.source.root, finding.file.source.inner,
                resume?.downloadURL ?? safari?.url ?? "", (resume?.bytesReceived ?? safari?.bytesReceived).map(String.init) ?? "",
                finding.file.sha256 ?? "", String(finding.file.size), HashSkipText.field(finding.file.hashSkipped),
            ]
        }
    }

    /// RFC 4180, as `--csv`.
    package var csv: String {
        ([Self.columns] + rows).map(CSVRow.line).joined()
    }

    /// `blob modified: tree/a/blob at tasks[0].resumeData (com.example.app), https://…, 4096 bytes received`.
    private func message(_ event: Event) -> String {
        let finding = event.finding
        var text = event.description + ": " + finding.path
        if finding.kind == .embeddedBlob, let keyPath = finding.blob?.keyPath { text += " at " + keyPath }
        if let bundleID = finding.bundleID { text += " (" + bundleID + ")" }
        if finding.kind == .partialFile, let blob = finding.blob {
            text += ", named by " + blob.path + (blob.keyPath.map { " at " + $0 } ?? "")
        }
        if let resume = finding.blob?.found.resumeData {
            if let url = resume.downloadURL { text += ", " + url }
            if let received = resume.bytesReceived { text += ", \(received) bytes received" }
        } else if finding.kind == .orphanPartialFile {
            text += ", \(finding.file.size) bytes, no blob names it"
        } else if let entry = finding.safariEntry {
            if let keyPath = finding.historyEntry.map({ $0.history.history.keyPaths[$0.index] }) { text += " at " + keyPath }
            if let url = entry.url { text += ", " + url }
            if let path = entry.path { text += ", to " + path }
        } else if let archive = finding.archive {
            text += ", \(archive.kind), \(finding.file.size) bytes" + (archive.readAs.map { ", read (archive \($0))" } ?? ", not read")
        } else if finding.kind == .safariPartialFile {
            text += ", \(finding.file.size) bytes, in its Safari bundle"
            if let url = finding.orphan?.safariDownload?.url { text += ", " + url }
        }
        return VisibleText.escaping(text)
    }

    /// Microseconds since 1970, as Timesketch's `timestamp`: whole seconds and the fraction
    /// rounded apart (the fraction is exact), so the digits agree with `datetime`'s. Only spellable
    /// dates get here, so the product stays far within Int64.
    private static func microseconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let fraction = ((seconds - whole) * 1_000_000).rounded(.toNearestOrEven)
        return String(Int64(whole) * 1_000_000 + Int64(fraction))
    }

    /// An HTTP date as `Last-Modified` spells it (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
    private static func httpDate(_ text: String) -> Date? {
        // Longer than any date: not worth handing to ICU.
        guard text.utf8.count <= 64 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
