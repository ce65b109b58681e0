import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan
@testable import ResumeReports

/// Each report of `scan` on the same fixed findings (a folder blob with its partial file, a blob
/// embedded in an encrypted backup's plist with hostile strings, an orphan partial file, an
/// error), compared whole with Expected/scan/. The findings are built, not scanned, so that every
/// time is fixed: a file on disk has the status change time of when it was written.
@Suite struct ScanRendererTests {
    static func date(_ text: String) -> Date {
        // The fixtures' dates are valid; a typo fails the comparison with Expected/ loudly.
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text) ?? ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    static let container = "tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A"
    static let hostileURL = "https://example.com/<script>document.title=\"pwned\"</script>&lt;b&gt;\u{1B}[31m"
    static let hostileKey = "\"><img src=x onerror=alert(1)>"

    static func inventory() throws -> ScanInventory {
        var plain = ResumeData(container: .keyedArchive)
        plain.downloadURL = "https://cdn.example.com/video.mp4"
        plain.bytesReceived = 100
        plain.tempFileName = "CFNetworkDownload_A.tmp"
        plain.serverDownloadDate = "Tue, 17 Nov 2026 09:12:44 GMT"
        let partialPath = "\(container)/tmp/CFNetworkDownload_A.tmp"
        let folderBlob = ScanInventory.Blob(
            path: "\(container)/Library/Caches/blob", keyPath: nil, appContainer: container,
            found: FoundResumeBlob(keyPath: nil, content: .resumeData(plain), size: 500),
            partialFile: (partialPath, 60), modified: date("2026-11-20T10:00:00Z"),
            findings: [ResumeDataFinding(.error, .tempFileSize, "the partial file \(partialPath) has 60 bytes, fewer than the 100 received",
                                         key: "NSURLSessionResumeInfoTempFileName")],
            file: EvidenceFile(source: FindingSource(kind: .folder, root: "tree", inner: "Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A/Library/Caches/blob"),
                               sha256: String(repeating: "ab", count: 32), size: 500, modified: date("2026-11-20T10:00:00Z"),
                               changed: date("2026-11-21T10:00:00.25Z"), created: nil, mode: 0o100644),
            bundleID: "com.example.video",
            partialFileEvidence: EvidenceFile(source: FindingSource(kind: .folder, root: "tree", inner: "Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A/tmp/CFNetworkDownload_A.tmp"),
                                              sha256: String(repeating: "cd", count: 32), size: 60, modified: date("2026-11-19T08:00:00Z"),
                                              changed: date("2026-11-19T08:00:01Z"), created: nil, mode: 0o100600))

        var hostile = ResumeData(container: .xml)
        hostile.downloadURL = hostileURL
        hostile.bytesReceived = 7
        let domainPath = "AppDomain-com.example.app/Library/Preferences/com.example.app.plist"
        let backupBlob = ScanInventory.Blob(
            path: domainPath, keyPath: hostileKey, appContainer: "AppDomain-com.example.app",
            found: FoundResumeBlob(keyPath: hostileKey, content: .resumeData(hostile), size: 300),
            partialFile: nil, modified: date("2026-11-18T12:00:00Z"), findings: [],
            file: EvidenceFile(source: FindingSource(kind: .encryptedBackup, root: "backup", inner: domainPath),
                               sha256: String(repeating: "ef", count: 32), size: 900, modified: date("2026-11-18T12:00:00Z"),
                               changed: date("2026-11-18T12:00:00Z"), created: date("2026-11-01T00:00:00Z"), mode: 0o100644),
            bundleID: "com.example.app", partialFileEvidence: nil)

        var status = FileStatus(size: 1000, modified: date("2026-11-22T00:00:00Z"))
        status.changed = date("2026-11-22T00:00:00Z")
        let orphan = ScanInventory.PartialFile(
            path: "\(container)/tmp/CFNetworkDownload_0rphan.tmp", appContainer: container, status: status,
            file: EvidenceFile(source: FindingSource(kind: .folder, root: "tree", inner: "Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A/tmp/CFNetworkDownload_0rphan.tmp"),
                               sha256: String(repeating: "01", count: 32), size: 1000, modified: date("2026-11-22T00:00:00Z"),
                               changed: date("2026-11-22T00:00:00Z"), created: nil, mode: 0o100600),
            bundleID: "com.example.video")

        let device = BackupDevice(name: "Examiner's <iPhone>", model: "iPhone17,1", iOSVersion: "18.2", build: "22C152",
                                  serial: "F17ZX0EXAMPL", udid: "00008140-001A2B3C4D5E6F70")
        return ScanInventory(blobs: [folderBlob, backupBlob], orphanPartialFiles: [orphan],
                             errors: [ScanProblem(path: "\(container)/Documents/locked", message: "cannot read the folder: Permission denied")],
                             fileCount: 12, backups: [BackupSummary(root: "backup", isEncrypted: true, device: device, fileCount: 8, unreadFileCount: 0)])
    }

    @Test func jsonLines() throws {
        let report = ScanJSONLinesReport(inventory: try Self.inventory())
        let text = String(decoding: report.bytes, as: UTF8.self)
        try EndToEnd.checkExpected(text, "scan/renderers.jsonl")
        // Each line is one JSON object of its own.
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5)
        let kinds = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["finding"] as? String
        }
        #expect(kinds == ["blob", "partial-file", "embedded-blob", "orphan-partial-file", "error"])
        // What could not be read is the last line, path and message.
        let error = try JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: String]
        #expect(error == ["finding": "error", "path": "tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A/Documents/locked",
                          "message": "cannot read the folder: Permission denied"])
    }

    @Test func csv() throws {
        let csv = ScanTable(inventory: try Self.inventory()).csv
        try EndToEnd.checkExpected(csv, "scan/renderers.csv")
        let rows = try ScanTests.parseCSV(csv)
        #expect(rows.map(\.count) == [26, 26, 26, 26])
        #expect(rows.map { $0[24] } == ["finding", "blob", "embedded-blob", "orphan-partial-file"])
        #expect(rows.map(\.last) == ["hashSkipped", "", "", ""])
    }

    @Test func tsv() throws {
        let tsv = ScanTable(inventory: try Self.inventory()).tsv
        try EndToEnd.checkExpected(tsv, "scan/renderers.tsv")
        #expect(tsv.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).count } == [26, 26, 26, 26])
        #expect(ScanTable.tsvField("a\tb\nc\rd\\e") == "a\\tb\\nc\\rd\\\\e")
    }

    @Test func timeline() throws {
        let timeline = ScanTimeline(inventory: try Self.inventory())
        try EndToEnd.checkExpected(timeline.csv, "scan/renderers.timeline.csv")
        let rows = try ScanTests.parseCSV(timeline.csv)
        #expect(rows.first?.prefix(3) == ["message", "datetime", "timestamp_desc"])
        // Sorted by time: the backup's record of the blob's birth (2026-11-01), then the blob's
        // own Last-Modified (2026-11-17), then the file times.
        let times = rows.dropFirst().map { $0[1] }
        #expect(times == times.sorted())
        #expect(rows.dropFirst().prefix(2).map { $0[2] } == ["blob created", "server Last-Modified (in the blob)"])
        // Folder blob: 2 file times and Last-Modified; its partial file 2; the backup's blob 3; the orphan 2.
        #expect(rows.count == 1 + 10)
    }

    @Test func html() throws {
        let page = ScanHTMLReport(inventory: try Self.inventory(), generated: Self.date("2026-11-25T12:00:00Z")).html
        try EndToEnd.checkExpected(page, "scan/renderers.html")
        // Nothing from the evidence became markup.
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("href"))
        #expect(page.contains("https://example.com/&lt;script&gt;document.title=\"pwned\"&lt;/script&gt;&amp;lt;b&amp;gt;\\u{1b}[31m"))
        #expect(page.contains("\"&gt;&lt;img src=x onerror=alert(1)&gt;"))
    }

    /// What a backup lacked (no Manifest.plist, stored files absent) is said in the HTML report's
    /// device table as in the text report, in the same words; a complete backup's table has no such rows.
    @Test func htmlSaysWhatABackupLacked() {
        var backup = BackupSummary(root: "backup", isEncrypted: false, device: BackupDevice(name: "Examiner's iPhone"), fileCount: 1_090, unreadFileCount: 0)
        backup.warnings = ["no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted, Info.plist names the device"]
        backup.missingFileCount = 1_078
        backup.missingFileExamples = ["AppDomain-a/x", "AppDomain-a/y", "HomeDomain/z"]
        let page = ScanHTMLReport(inventory: ScanInventory(blobs: [], orphanPartialFiles: [], errors: [], fileCount: 12, backups: [backup]),
                                  generated: nil).html
        #expect(page.contains("""
                 <th>Files missing</th>
                 <td>1,078 of 1,090 files listed in Manifest.db are not in this folder: an incomplete copy? \
            The first: AppDomain-a/x, AppDomain-a/y, HomeDomain/z; the JSON report lists every one.</td>
                </tr>
            """))
        #expect(page.contains("""
                 <th>Warning</th>
                 <td>no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted, Info.plist names the device</td>
            """))
        #expect(ScanReport.missingFiles(backup) == [
            "  1,078 of 1,090 files listed in Manifest.db are not in this folder: an incomplete copy? The first 3:",
            "    AppDomain-a/x", "    AppDomain-a/y", "    HomeDomain/z", "    and 1,075 more (scan --json lists every one)",
        ])
        backup.missingFileCount = 1
        backup.missingFileExamples = ["HomeDomain/z"]
        backup.listName = "Manifest.mbdb"
        #expect(ScanReport.missingFiles(backup) == [
            "  1 of 1,090 files listed in Manifest.mbdb is not in this folder: an incomplete copy?", "    HomeDomain/z",
        ])
        backup.missingFileCount = 0
        backup.warnings = []
        let complete = ScanHTMLReport(inventory: ScanInventory(blobs: [], orphanPartialFiles: [], errors: [], fileCount: 12, backups: [backup]),
                                      generated: nil).html
        #expect(!complete.contains("Files missing"))
        #expect(!complete.contains("<th>Warning</th>"))
        #expect(ScanReport.missingFiles(backup) == [])
    }

    /// Plot keeps an entity already in its text; evidence holding one shows it as it is.
    @Test func entitiesInEvidenceStayText() {
        let page = ScanHTMLReport(inventory: ScanInventory(blobs: [], orphanPartialFiles: [], errors: [
            ScanProblem(path: "&amp; &#60; &lt;&", message: "<b>"),
        ], fileCount: 0, backups: []), generated: nil).html
        #expect(page.contains("<code>&amp;amp; &amp;#60; &amp;lt;&amp;</code>: &lt;b&gt;"))
    }
}
