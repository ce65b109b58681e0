import Foundation
import Testing

/// `scan --jsonl`, `--tsv`, `--timeline` and `--html FILE` from the command line, on the
/// synthetic tree of ScanTests and the generated backup of BackupScanTests; the exact output of
/// each renderer is ScanRendererTests'.
@Suite struct ScanReportCommandTests {
    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func jsonLinesOfTheTree() throws {
        let tree = try ScanTests.Tree()
        let result = try tree.run(["scan", "--jsonl", "tree"])
        #expect(result.status == 0)
        // As --csv: what could not be read goes to standard error; and it ends the lines.
        #expect(result.stderr == ScanTests.lockedError)
        #expect(result.stdout.hasSuffix("}\n"))
        let lines = try Self.jsonLines(result.stdout)
        #expect(lines.map { $0["finding"] as? String } == [
            "blob", "partial-file", "embedded-blob", "partial-file", "embedded-blob", "partial-file", "blob", "partial-file", "blob",
            "orphan-partial-file", "safari-partial-file", "error", "error",
        ])
        #expect(lines.suffix(2).map { $0 as? [String: String] } == [
            ["finding": "error", "path": "\(ScanTests.containerA)/Documents/locked", "message": "cannot read the folder: Permission denied"],
            ["finding": "error", "path": "\(ScanTests.containerA)/Documents/secret.plist", "message": "cannot open: Permission denied"],
        ])
        for line in lines.dropLast(2) {
            for key in ["path", "bundleID", "sha256", "size", "modified", "changed", "created", "mode", "source"] {
                #expect(line.keys.contains(key), "\(key) missing from \(line)")
            }
            #expect((line["source"] as? [String: Any])?["kind"] as? String == "folder")
            #expect(line["device"] == nil)
        }
        // A partial file's line names its blob.
        let partial = lines[1]
        #expect(partial["path"] as? String == "\(ScanTests.containerA)/tmp/CFNetworkDownload_H4sh3d.tmp")
        #expect(partial["sha256"] as? String == "c9ac7b0624824f844f6c7f3d50fab9741a8914e878467e8daaedca143a34d90b")
        #expect(partial["size"] as? Int == 4096)
        let blob = try #require(partial["blob"] as? [String: Any])
        #expect(blob["path"] as? String == "\(ScanTests.containerA)/Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592")
        #expect(blob["downloadURL"] as? String == "https://cdn.example.com/video.mp4")
        #expect(blob["bytesReceived"] as? Int == 4096)
        // A blob's line is its object of --json, with `finding` first.
        #expect(lines[2]["keyPath"] as? String == "pending[1].resumeData")
        #expect((lines[2]["findings"] as? [[String: Any]])?.map { $0["code"] as? String } == ["temp-file-size"])
        #expect(lines[9]["sha256"] as? String == "62923de3afb82e5f258f64af6e47a62706a63680e3fd398e2806e1a4d576809c")
    }

    @Test func tsvHasTheRowsOfCSV() throws {
        let tree = try ScanTests.Tree()
        let csv = try tree.run(["scan", "--csv", "tree"])
        let tsv = try tree.run(["scan", "--tsv", "tree"])
        #expect(tsv.status == 0)
        #expect(tsv.stderr == ScanTests.lockedError)
        // The tree's odd name and URL hold commas and quotes but no tab, line break or backslash.
        let rows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows == (try ScanTests.parseCSV(csv.stdout)))
        #expect(tsv.stdout.hasSuffix("\tsafari-partial-file\t\n"))
    }

    @Test func timelineOfTheTree() throws {
        let tree = try ScanTests.Tree()
        let result = try tree.run(["scan", "--timeline", "tree"])
        #expect(result.status == 0)
        #expect(result.stderr == ScanTests.lockedError)
        let rows = try ScanTests.parseCSV(result.stdout)
        #expect(rows.first == ["message", "datetime", "timestamp_desc", "timestamp", "finding", "path", "keyPath", "bundleID",
                               "sourceKind", "sourceRoot", "sourceInner", "downloadURL", "bytesReceived", "sha256", "size", "hashSkipped"])
        let events = rows.dropFirst()
        // In time order: by `timestamp` (microseconds). Not by the ISO text, whose fraction has
        // as many digits as it needs (".6502Z" is earlier than ".650289Z" but sorts after it).
        let stamps = events.compactMap { Int64($0[3]) }
        #expect(stamps.count == events.count)
        #expect(stamps == stamps.sorted())
        // Linux's stat: modified and changed, no birth time; every finding has both.
        let counts = Dictionary(events.map { ($0[2], 1) }, uniquingKeysWith: +)
        #expect(counts["blob modified"] == 5)
        #expect(counts["blob status changed"] == 5)
        #expect(counts["partial file modified"] == 4)
        #expect(counts["partial file status changed"] == 4)
        #expect(counts["orphan partial file modified"] == 1)
        #expect(counts["Safari bundle's partial file modified"] == 1)
        #expect(counts["blob created"] == nil)
        // The blobs' own dates: the iOS 26 sample's archived response (Last-Modified of 2017)
        // first of all, and the NSUserDefaults blob's NSURLSessionResumeServerDownloadDate.
        let own = events.filter { $0[2] == "server Last-Modified (in the blob)" }
        #expect(own.map { [$0[1], $0[3], $0[0]] } == [
            ["2017-03-24T02:43:46Z", "1490323426000000",
             "server Last-Modified (in the blob): \(ScanTests.containerB)/Library/Caches/nw/f00d, http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"],
            ["2026-11-17T09:12:44Z", "1794906764000000",
             "server Last-Modified (in the blob): \(ScanTests.containerA)/Library/Preferences/com.example.app.plist at pending[1].resumeData, https://example.org/podcast.mp3, 100 bytes received"],
        ])
        #expect(events.first?[0] == own.first?[0])
        for row in events where row[2] == "blob modified" {
            #expect(row[1] == ScanTests.modifiedText)
            #expect(row[3] == "1767323045000000")
        }
    }

    @Test func htmlOfABackup() throws {
        let backup = try BackupScanTests.Backup()
        let before = try backup.snapshot()
        let result = try backup.run(["scan", "--jsonl", "--html", "report.html", "backup"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let page = try String(contentsOf: backup.directory.url.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
        for text in ["<h2>Backup \n    <code>backup</code>\n   </h2>", "<td>Examiner's iPhone</td>", "<td>iPhone17,1</td>", "<td>18.2</td>",
                     "<td>22C152</td>", "<td>F17ZX0EXAMPL</td>", "<td>00008140-001A2B3C4D5E6F70</td>",
                     "<td>com.example.app</td>", "<td>group.com.example.shared</td>",
                     "<code>\(BackupScanTests.downloadsSHA256)</code>", "<code>\(BackupScanTests.partialSHA256)</code>",
                     "<td>\(BackupScanTests.partial)</td>"] {
            #expect(page.contains(text), "\(text) missing")
        }
        #expect(!page.contains("<script") && !page.contains("href="))
        // Every line of a backup's finding carries its device. Two blobs name the same partial
        // file: it has a line after each.
        let lines = try Self.jsonLines(result.stdout)
        #expect(lines.map { $0["finding"] as? String } == ["blob", "partial-file", "embedded-blob", "partial-file", "embedded-blob"])
        #expect(lines.map { $0["path"] as? String }[3] == BackupScanTests.partial)
        for line in lines {
            #expect((line["device"] as? [String: Any])?["serial"] as? String == "F17ZX0EXAMPL")
            #expect((line["source"] as? [String: Any])?["kind"] as? String == "backup")
        }
        #expect(try backup.snapshot() == before)
        // A backup's MBFile has birth times: they are on the timeline.
        let timeline = try backup.run(["scan", "--timeline", "backup"])
        #expect(try ScanTests.parseCSV(timeline.stdout).contains { $0[2] == "blob created" && $0[8] == "backup" })
    }

    @Test func htmlToStandardOutput() throws {
        let tree = try ScanTests.Tree()
        let result = try tree.run(["scan", "--html", "-", "tree/loose"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>\n"))
        #expect(result.stdout.hasSuffix("</html>\n"))
        #expect(result.stdout.contains("<code>\(ScanTests.looseURL)</code>"))
    }

    @Test func htmlThatCannotBeWritten() throws {
        let tree = try ScanTests.Tree()
        let result = try tree.run(["scan", "--html", "missing/report.html", "tree/loose"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("missing/report.html: error: cannot write: "))
        // The report on standard output was printed all the same.
        #expect(result.stdout.hasSuffix("2 files scanned: 1 blob, 0 orphan partial files, 0 errors\n"))
    }

    @Test func formatsCannotBeCombined() throws {
        for (arguments, message) in [
            (["--jsonl", "--csv"], "--jsonl and --csv cannot be used together"),
            (["--json", "--timeline"], "--json and --timeline cannot be used together"),
            (["--tsv", "--csv", "--jsonl"], "--jsonl and --csv and --tsv cannot be used together"),
            (["--html", "-", "--jsonl"], "--html - and --jsonl cannot be used together: both print on standard output"),
        ] {
            let result = try ToolRunner.run(["scan"] + arguments + ["."])
            #expect(result.status == 64)
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
