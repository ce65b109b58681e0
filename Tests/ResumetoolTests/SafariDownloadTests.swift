import Foundation
import Testing

/// Safari's `.download` bundles (issue 34, item 4), written by `Backups/make_safari_download.py`
/// with Python's plistlib: `inspect NAME.download` on the modern (binary) and legacy (XML)
/// layouts, values of the wrong type, a bundle without `Info.plist`; and `scan`, which tells each
/// bundle's partial file with what its `Info.plist` says.
@Suite struct SafariDownloadTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/make_safari_download.py")
    /// SHA-256 of Samples/CFNetworkDownload_Occ2S2.tmp, the modern bundle's partial file.
    static let partialSHA256 = "d41d438c379110c7f7b2c561b1f04f26c1b4549110791f8e022f48974280c13e"
    /// SHA-256 of the legacy bundle's 1,000-byte report.zip.
    static let reportSHA256 = "fc22630aa2347dc1c69971aee67475be83f51b4a87fabd7982f74e9e01be6dff"

    final class Made {
        let directory: TemporaryDirectory
        init() throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", SafariDownloadTests.generator.path, directory.url.path])
            try #require(made.status == 0, "make_safari_download.py: \(String(decoding: made.stderr, as: UTF8.self))")
        }

        func run(_ arguments: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run(arguments, in: directory.url)
        }
    }

    @Test func inspectTheModernBundle() throws {
        let made = try Made()
        let result = try made.run(["inspect", "Downloads/Example-2.4.1.dmg.download"])
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            Downloads/Example-2.4.1.dmg.download: a Safari download bundle
              Safari download:  Info.plist (modern layout)
              download URL:     https://downloads.example.com/releases/Example-2.4.1.dmg
              bytes received:   4,096 bytes (4.0 KiB) of 2,339,054 bytes (2.2 MiB)
              validator:        none (no key of the modern layout is known to hold one)
              destination:      /Users/examiner/Downloads/Example-2.4.1.dmg
              identifier:       0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9
              added:            2026-01-02T02:00:00Z
              partial file:     Example-2.4.1.dmg, 4,096 bytes (4.0 KiB), as received
              SHA-256:          \(Self.partialSHA256)
              modified:         2026-01-02T03:04:05Z

            """, stderr: ""))
    }

    @Test func inspectTheLegacyBundleAsJSON() throws {
        let made = try Made()
        let result = try made.run(["inspect", "--json", "Downloads/report.zip.download"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // An array whatever the number of inputs, as for blobs.
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 1)
        let top = try #require(reports.first)
        #expect(top["file"] as? String == "Downloads/report.zip.download")
        let info = try #require(top["safariDownload"] as? [String: Any])
        #expect(info["layout"] as? String == "legacy")
        #expect(info["url"] as? String == "http://files.example.org/report.zip")
        #expect(info["bytesReceived"] as? Int == 1000)
        #expect(info["totalBytes"] is NSNull)
        #expect(info["entityTag"] as? String == "\"5d41402a-3e8\"")
        #expect(info["path"] as? String == "/Users/examiner/Desktop/report.zip")
        #expect(info["errorCode"] as? Int == -999)
        #expect(info["dateAdded"] is NSNull)
        #expect((info["problems"] as? [String]) == [])
        let partial = try #require(top["partialFile"] as? [String: Any])
        #expect(partial["name"] as? String == "report.zip")
        #expect(partial["size"] as? Int == 1000)
        #expect(partial["sha256"] as? String == Self.reportSHA256)
        #expect(partial["modified"] as? String == "2026-01-02T03:04:05Z")
        let text = try made.run(["inspect", "Downloads/report.zip.download"])
        #expect(text.stdout.contains("\n  validator:        ETag \"5d41402a-3e8\"\n  destination:      /Users/examiner/Desktop/report.zip\n  error code:       -999\n"))
    }

    @Test func valuesOfTheWrongTypeAreLeftOutAndSaid() throws {
        let made = try Made()
        let result = try made.run(["inspect", "Downloads/odd.bin.download"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  bytes received:   -"))
        #expect(lines.filter { $0.hasPrefix("  warning: ") } == [
            "  warning: DownloadEntryProgressBytesSoFar is of type string, not integer",
            "  warning: DownloadEntryProgressTotalToLoad is -5, below 0",
            "  warning: DownloadEntryDateAddedKey is of type string, not date",
        ])
    }

    @Test func aBundleWithoutInfoPlistIsAnErrorThatSaysWhere() throws {
        let made = try Made()
        let result = try made.run(["inspect", "Downloads/empty.download", "Downloads/Example-2.4.1.dmg.download"])
        #expect(result.status == 2)
        #expect(result.stderr == "Downloads/empty.download: error: cannot read Info.plist: No such file or directory\n")
        #expect(result.stdout.hasPrefix("Downloads/Example-2.4.1.dmg.download: a Safari download bundle\n"))
    }

    /// `validate NAME.download` judges the bundle as `inspect` reads it, in the findings a blob
    /// gets: the modern layout's missing validator is a note, a partial file as received is
    /// fine, wrong types are warnings, and a bundle without Info.plist is unreadable (exit 2).
    @Test func validateABundleAsInspectReadsIt() throws {
        let made = try Made()
        let modern = try made.run(["validate", "Downloads/Example-2.4.1.dmg.download"])
        #expect(modern == ToolRunner.Result(status: 0, stdout: """
            Downloads/Example-2.4.1.dmg.download: note: the modern layout keeps no validator: no one can prove the server's file \
            unchanged since the partial file was written [missing-validator]

            """, stderr: ""))
        let legacy = try made.run(["validate", "--json", "Downloads/report.zip.download"])
        #expect(legacy.status == 0)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(legacy.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 1)
        #expect(reports.first?["file"] as? String == "Downloads/report.zip.download")
        #expect(reports.first?["ok"] as? Bool == true)
        #expect((reports.first?["findings"] as? [Any])?.isEmpty == true)
        let odd = try made.run(["validate", "Downloads/odd.bin.download"])
        #expect(odd == ToolRunner.Result(status: 0, stdout: """
            Downloads/odd.bin.download: warning: DownloadEntryProgressBytesSoFar is of type string, not integer [wrong-type]
            Downloads/odd.bin.download: warning: DownloadEntryProgressTotalToLoad is -5, below 0 [wrong-type]
            Downloads/odd.bin.download: warning: DownloadEntryDateAddedKey is of type string, not date [wrong-type]
            Downloads/odd.bin.download: warning: DownloadEntryProgressBytesSoFar: Info.plist says no bytes received: the partial file's \
            4 bytes are all there is to go by [missing-bytes-received]
            Downloads/odd.bin.download: note: the modern layout keeps no validator: no one can prove the server's file unchanged since \
            the partial file was written [missing-validator]

            """, stderr: ""))
        let empty = try made.run(["validate", "Downloads/empty.download"])
        #expect(empty == ToolRunner.Result(status: 2, stdout: "", stderr: "Downloads/empty.download: error: cannot read Info.plist: No such file or directory\n"))
    }

    /// A partial file shorter than the bytes Info.plist says were received cannot be resumed
    /// from: an error, exit 1, as for a blob's partial file.
    @Test func validateTellsAPartialFileShorterThanReceived() throws {
        let made = try Made()
        let data = made.directory.url.appendingPathComponent("Downloads/report.zip.download/report.zip")
        try Data(repeating: 1, count: 10).write(to: data)
        let result = try made.run(["validate", "Downloads/report.zip.download"])
        #expect(result == ToolRunner.Result(status: 1, stdout: """
            Downloads/report.zip.download: error: NSURLDownloadBytesReceived: the partial file report.zip has 10 bytes, fewer than the \
            1000 received [temp-file-size]

            """, stderr: ""))
    }

    /// The scan's JSON and its orphan partial files, which must be the four bundles' data files.
    private static func bundleOrphans(_ result: ToolRunner.Result) throws -> (top: [String: Any], orphans: [[String: Any]]) {
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
        #expect(orphans.map { $0["path"] as? String } == [
            "Downloads/Example-2.4.1.dmg.download/Example-2.4.1.dmg", "Downloads/empty.download/empty",
            "Downloads/odd.bin.download/odd.bin", "Downloads/report.zip.download/report.zip",
        ])
        return (top, orphans)
    }

    @Test func scanTellsEachBundlesPartialFileWithItsInfo() throws {
        let made = try Made()
        let result = try made.run(["scan", "--json", "Downloads"])
        let (_, orphans) = try Self.bundleOrphans(result)
        #expect(orphans.map { $0["size"] as? Int } == [4096, 19, 4, 1000])
        #expect(orphans.first?["sha256"] as? String == Self.partialSHA256)
        #expect(orphans.last?["sha256"] as? String == Self.reportSHA256)
        let infos = orphans.map { $0["safariDownload"] as? [String: Any] }
        #expect(infos.map { $0?["layout"] as? String } == ["modern", nil, "modern", "legacy"])
        #expect(infos.map { $0?["bytesReceived"] as? Int } == [4096, nil, nil, 1000])
        #expect(infos.map { $0?["totalBytes"] as? Int } == [2_339_054, nil, nil, nil])
        #expect(infos[0]?["identifier"] as? String == "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9")
        #expect(infos[0]?["sandboxIdentifier"] as? String == "9F8E7D6C-5B4A-4392-8170-6F5E4D3C2B1A")
        #expect(infos[0]?["dateAdded"] as? String == "2026-01-02T02:00:00Z")
        #expect(infos[3]?["entityTag"] as? String == "\"5d41402a-3e8\"")
        // The bundle without Info.plist has no such member at all.
        #expect(orphans[1].keys.contains("safariDownload") == false)
        let text = try made.run(["scan", "Downloads"])
        #expect(text.stdout.contains("""
              orphan partial file: Downloads/report.zip.download/report.zip, 1,000 bytes, modified 2026-01-02T03:04:05Z
                Safari download:  Info.plist (legacy layout, NSURLDownload)
                download URL:     http://files.example.org/report.zip
                bytes received:   1,000 bytes
                validator:        ETag "5d41402a-3e8"

            """))
        #expect(text.stdout.hasSuffix("7 files scanned: 0 blobs, 4 orphan partial files, 0 errors\n"))
    }

    /// Safari's list of downloads: each entry told, the two that are not downloads said.
    @Test func scanTellsSafarisListOfDownloads() throws {
        let made = try Made()
        let text = try made.run(["scan", "Library"])
        #expect(text == ToolRunner.Result(status: 0, stdout: """
            Safari download history Library/Safari/Downloads.plist: 2 entries
              https://downloads.example.com/releases/Example-2.4.1.dmg, 4,096 bytes (4.0 KiB) of 2,339,054 bytes (2.2 MiB), \
            added 2026-01-02T02:00:00Z, to /Users/examiner/Downloads/Example-2.4.1.dmg.download
              https://example.org/manual.pdf, 52,311 bytes (51.1 KiB) of 52,311 bytes (51.1 KiB), added 2025-12-30T09:00:00Z, \
            finished 2025-12-30T09:00:07Z, to /Users/examiner/Downloads/manual.pdf
              warning: entry 2 is of type string, not dictionary
              warning: entry 3 has no DownloadEntry key: not a Safari download's

            1 file scanned: 0 blobs, 0 orphan partial files, 0 errors

            """, stderr: ""))
        let json = try made.run(["scan", "--json", "Library"])
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let histories = try #require(top["safariDownloadHistory"] as? [[String: Any]])
        #expect(histories.map { $0["path"] as? String } == ["Library/Safari/Downloads.plist"])
        let sum = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", made.directory.path("Library/Safari/Downloads.plist")])
        #expect(histories.first?["sha256"] as? String == String(String(decoding: sum.stdout, as: UTF8.self).prefix(64)))
        let entries = try #require(histories.first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["url"] as? String } == ["https://downloads.example.com/releases/Example-2.4.1.dmg", "https://example.org/manual.pdf"])
        #expect(entries.map { $0["dateFinished"] as? String } == [nil, "2025-12-30T09:00:07Z"])
        #expect(entries.map { $0["identifier"] as? String } == ["0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9", nil])
        #expect(histories.first?["problems"] as? [String] == ["entry 2 is of type string, not dictionary",
                                                               "entry 3 has no DownloadEntry key: not a Safari download's"])
        // A folder scan without Safari's list keeps its document as it was.
        let downloads = try made.run(["scan", "--json", "Downloads"])
        #expect(!downloads.stdout.contains("safariDownloadHistory"))
    }

    /// The same bundles and list in a tar made by GNU tar: told as in the folder.
    @Test func bundlesAndTheListInAnArchive() throws {
        let made = try Made()
        let tar = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["tar", "--sort=name", "-cf", "safari.tar", "Downloads", "Library"],
                                         in: made.directory.url)
        try #require(tar.status == 0)
        let result = try made.run(["scan", "--json", "safari.tar"])
        let (top, orphans) = try Self.bundleOrphans(result)
        #expect(orphans.map { ($0["safariDownload"] as? [String: Any])?["layout"] as? String } == ["modern", nil, "modern", "legacy"])
        #expect(orphans.first?["sha256"] as? String == Self.partialSHA256)
        let histories = try #require(top["safariDownloadHistory"] as? [[String: Any]])
        #expect(histories.map { $0["path"] as? String } == ["Library/Safari/Downloads.plist"])
        #expect((histories.first?["entries"] as? [Any])?.count == 2)
        #expect((histories.first?["source"] as? [String: Any])?["kind"] as? String == "archive")
    }

    /// Nothing inside a bundle is followed: a linked Info.plist is an error that says so, a linked
    /// data file is no partial file.
    @Test func linksInsideABundleAreNeverFollowed() throws {
        let made = try Made()
        let manager = FileManager.default
        try manager.createDirectory(atPath: made.directory.path("Links/a.txt.download"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: made.directory.path("Links/a.txt.download/Info.plist"),
                                       withDestinationPath: made.directory.path("Downloads/report.zip.download/Info.plist"))
        try manager.createDirectory(atPath: made.directory.path("Links/b.txt.download"), withIntermediateDirectories: true)
        try manager.copyItem(atPath: made.directory.path("Downloads/report.zip.download/Info.plist"), toPath: made.directory.path("Links/b.txt.download/Info.plist"))
        try manager.createSymbolicLink(atPath: made.directory.path("Links/b.txt.download/b.txt"), withDestinationPath: "/etc/passwd")
        let linkedInfo = try made.run(["inspect", "Links/a.txt.download"])
        #expect(linkedInfo == ToolRunner.Result(status: 2, stdout: "",
                                                stderr: "Links/a.txt.download: error: cannot read Info.plist: Too many levels of symbolic links\n"))
        let linkedData = try made.run(["inspect", "Links/b.txt.download"])
        #expect(linkedData.status == 0)
        #expect(linkedData.stdout.hasSuffix("\n  partial file:     none in the bundle\n"))
    }
}
