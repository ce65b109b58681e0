import Foundation
import Testing

/// Safari's `.download` bundles, written by `Backups/make_safari_download.py` with Python's
/// plistlib: `inspect NAME.download` on the modern (binary) and legacy (XML, and binary as a real
/// bundle is, with Finder's files) layouts, values of the wrong type, a bundle without
/// `Info.plist`; `explain`; and `scan`, which ties each bundle's partial file to its `Info.plist`
/// and `Downloads.plist` entry, in every format.
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

    /// The scan's JSON and its Safari partial files, which must be the three named bundles' data
    /// files; the bundle without Info.plist (that no history entry names) keeps an orphan.
    private static func bundlePartialFiles(_ result: ToolRunner.Result) throws -> (top: [String: Any], files: [[String: Any]]) {
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
        #expect(orphans.map { $0["path"] as? String } == ["Downloads/empty.download/empty"])
        #expect(orphans.first?.keys.contains("safariDownload") == false)
        let files = try #require(top["safariPartialFiles"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [
            "Downloads/Example-2.4.1.dmg.download/Example-2.4.1.dmg", "Downloads/odd.bin.download/odd.bin",
            "Downloads/report.zip.download/report.zip",
        ])
        return (top, files)
    }

    @Test func scanTiesEachBundlesPartialFileToItsInfo() throws {
        let made = try Made()
        let result = try made.run(["scan", "--json", "Downloads"])
        let (_, files) = try Self.bundlePartialFiles(result)
        #expect(files.map { $0["size"] as? Int } == [4096, 4, 1000])
        #expect(files.first?["sha256"] as? String == Self.partialSHA256)
        #expect(files.last?["sha256"] as? String == Self.reportSHA256)
        let infos = files.map { $0["safariDownload"] as? [String: Any] }
        #expect(infos.map { $0?["layout"] as? String } == ["modern", "modern", "legacy"])
        #expect(infos.map { $0?["bytesReceived"] as? Int } == [4096, nil, 1000])
        #expect(infos.map { $0?["totalBytes"] as? Int } == [2_339_054, nil, nil])
        #expect(infos[0]?["identifier"] as? String == "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9")
        #expect(infos[0]?["sandboxIdentifier"] as? String == "9F8E7D6C-5B4A-4392-8170-6F5E4D3C2B1A")
        #expect(infos[0]?["dateAdded"] as? String == "2026-01-02T02:00:00Z")
        #expect(infos[2]?["entityTag"] as? String == "\"5d41402a-3e8\"")
        // No Downloads.plist in the folder scanned: no history entry.
        #expect(files.allSatisfy { $0["safariHistoryEntry"] == nil })
        let text = try made.run(["scan", "Downloads"])
        #expect(text.stdout.contains("""
              Safari bundle's partial file: Downloads/report.zip.download/report.zip, 1,000 bytes, modified 2026-01-02T03:04:05Z, as received
                Safari download:  Info.plist (legacy layout, NSURLDownload)
                download URL:     http://files.example.org/report.zip
                bytes received:   1,000 bytes
                validator:        ETag "5d41402a-3e8"

            """))
        #expect(text.stdout.contains("  orphan partial file: Downloads/empty.download/empty, 19 bytes, modified 2026-01-02T03:04:05Z\n"))
        #expect(text.stdout.hasSuffix("7 files scanned: 0 blobs, 3 Safari bundle partial files, 1 orphan partial file, 0 errors\n"))
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
        let (top, files) = try Self.bundlePartialFiles(result)
        #expect(files.map { ($0["safariDownload"] as? [String: Any])?["layout"] as? String } == ["modern", "modern", "legacy"])
        #expect(files.first?["sha256"] as? String == Self.partialSHA256)
        // The list in the same archive names the modern bundle by its identifier.
        #expect(files.map { ($0["safariHistoryEntry"] as? [String: Any])?["keyPath"] as? String } == ["DownloadHistory[0]", nil, nil])
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
                                                stderr: "Links/a.txt.download: error: Info.plist is a symbolic link, which is never followed inside evidence\n"))
        let linkedData = try made.run(["inspect", "Links/b.txt.download"])
        #expect(linkedData.status == 0)
        #expect(linkedData.stdout.hasSuffix("\n  partial file:     none in the bundle\n"))
    }

    // MARK: Bundles as they are on disk

    /// The legacy layout as a real bundle has it: a binary Info.plist with the server's
    /// Last-Modified, and Finder's `Icon\r`, `.DS_Store` and `._setup.pkg` beside the data file.
    @Test func inspectALegacyBundleAsItIsOnDisk() throws {
        let made = try Made()
        let result = try made.run(["inspect", "Desktop/setup.pkg.download"])
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            Desktop/setup.pkg.download: a Safari download bundle
              Safari download:  Info.plist (legacy layout, NSURLDownload)
              download URL:     http://downloads.example.net/setup.pkg
              bytes received:   2,048 bytes (2.0 KiB)
              validator:        Last-Modified Tue, 15 Nov 2016 08:12:31 GMT
              destination:      /Users/examiner/Desktop/setup.pkg
              error code:       -999
              partial file:     setup.pkg, 2,048 bytes (2.0 KiB), as received
              SHA-256:          \(Self.setupSHA256)
              modified:         2026-01-02T03:04:05Z

            """, stderr: ""))
        let json = try made.run(["inspect", "--json", "Desktop/setup.pkg.download"])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let info = try #require(reports.first?["safariDownload"] as? [String: Any])
        #expect(info["lastModified"] as? String == "Tue, 15 Nov 2016 08:12:31 GMT")
        #expect(info["entityTag"] is NSNull)
        // A validator is kept: nothing to note.
        let validate = try made.run(["validate", "--json", "Desktop/setup.pkg.download"])
        let judged = try #require(try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [[String: Any]])
        #expect(validate.status == 0)
        #expect((judged.first?["findings"] as? [Any])?.isEmpty == true)
    }

    /// SHA-256 of setup.pkg, bytes 0-255 eight times.
    static let setupSHA256 = "10fc3c51a152e90e5b90319b601d92ccf37290ef53c35ff92507687d8a911a08"

    /// Finder's files are never partial files; the data file is tied to its bundle, not an orphan.
    @Test func scanGivesOnePartialFileTiedToItsBundle() throws {
        let made = try Made()
        let text = try made.run(["scan", "Desktop"])
        #expect(text == ToolRunner.Result(status: 0, stdout: """
            outside any app container:
              Safari bundle's partial file: Desktop/setup.pkg.download/setup.pkg, 2,048 bytes (2.0 KiB), modified 2026-01-02T03:04:05Z, as received
                Safari download:  Info.plist (legacy layout, NSURLDownload)
                download URL:     http://downloads.example.net/setup.pkg
                bytes received:   2,048 bytes (2.0 KiB)
                validator:        Last-Modified Tue, 15 Nov 2016 08:12:31 GMT
                destination:      /Users/examiner/Desktop/setup.pkg
                error code:       -999

            5 files scanned: 0 blobs, 1 Safari bundle partial file, 0 orphan partial files, 0 errors

            """, stderr: ""))
    }

    /// The modern bundle is tied to the Downloads.plist entry with its identifier, in every
    /// report format, and the list's entries are in each.
    @Test func theHistoryAndTheBundlesAreInEveryFormat() throws {
        let made = try Made()
        let json = try made.run(["scan", "--json", "Downloads", "Library"])
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(top["safariPartialFiles"] as? [[String: Any]])
        let entry = try #require(files.first?["safariHistoryEntry"] as? [String: Any])
        #expect(entry["path"] as? String == "Library/Safari/Downloads.plist")
        #expect(entry["index"] as? Int == 0)
        #expect(entry["keyPath"] as? String == "DownloadHistory[0]")
        #expect(files.dropFirst().allSatisfy { $0["safariHistoryEntry"] == nil })
        let text = try made.run(["scan", "Downloads", "Library"])
        #expect(text.stdout.contains("\n    in history:       Library/Safari/Downloads.plist, DownloadHistory[0]\n"))

        let lines = try made.run(["scan", "--jsonl", "Downloads", "Library"])
        #expect(lines.status == 0)
        let objects = try lines.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["finding"] as? String } == [
            "orphan-partial-file", "safari-partial-file", "safari-partial-file", "safari-partial-file",
            "safari-history-entry", "safari-history-entry",
        ])
        #expect(objects[4]["path"] as? String == "Library/Safari/Downloads.plist")
        #expect(objects[5]["keyPath"] as? String == "DownloadHistory[1]")
        #expect((objects[5]["safariDownload"] as? [String: Any])?["url"] as? String == "https://example.org/manual.pdf")
        #expect((objects[1]["safariHistoryEntry"] as? [String: Any])?["index"] as? Int == 0)

        let csv = try made.run(["scan", "--csv", "Downloads", "Library"])
        let rows = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.count == 7)
        #expect(rows[5].hasPrefix("Library/Safari/Downloads.plist,DownloadHistory[0],,,https://downloads.example.com/releases/Example-2.4.1.dmg,4096,"))
        #expect(rows[6].hasPrefix("Library/Safari/Downloads.plist,DownloadHistory[1],,,https://example.org/manual.pdf,52311,"))
        #expect(rows[2].hasPrefix("Downloads/Example-2.4.1.dmg.download/Example-2.4.1.dmg,,,,https://downloads.example.com/releases/Example-2.4.1.dmg,4096,"))
        #expect(rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().last.map(String.init) } == [
            "orphan-partial-file", "safari-partial-file", "safari-partial-file", "safari-partial-file", "safari-history-entry", "safari-history-entry",
        ])

        let timeline = try made.run(["scan", "--timeline", "Library"])
        #expect(timeline == ToolRunner.Result(status: 0, stdout: """
            message,datetime,timestamp_desc,timestamp,finding,path,keyPath,bundleID,sourceKind,sourceRoot,sourceInner,downloadURL,bytesReceived,sha256,size,hashSkipped\r
            "Safari download added: Library/Safari/Downloads.plist at DownloadHistory[1], https://example.org/manual.pdf, to /Users/examiner/Downloads/manual.pdf",\
            2025-12-30T09:00:00Z,Safari download added,1767085200000000,safari-history-entry,Library/Safari/Downloads.plist,DownloadHistory[1],,folder,Library,\
            Safari/Downloads.plist,https://example.org/manual.pdf,52311,\(try historySHA256(made)),662,\r
            "Safari download finished: Library/Safari/Downloads.plist at DownloadHistory[1], https://example.org/manual.pdf, to /Users/examiner/Downloads/manual.pdf",\
            2025-12-30T09:00:07Z,Safari download finished,1767085207000000,safari-history-entry,Library/Safari/Downloads.plist,DownloadHistory[1],,folder,Library,\
            Safari/Downloads.plist,https://example.org/manual.pdf,52311,\(try historySHA256(made)),662,\r
            "Safari download added: Library/Safari/Downloads.plist at DownloadHistory[0], https://downloads.example.com/releases/Example-2.4.1.dmg, \
            to /Users/examiner/Downloads/Example-2.4.1.dmg.download",2026-01-02T02:00:00Z,Safari download added,1767319200000000,safari-history-entry,\
            Library/Safari/Downloads.plist,DownloadHistory[0],,folder,Library,Safari/Downloads.plist,https://downloads.example.com/releases/Example-2.4.1.dmg,4096,\
            \(try historySHA256(made)),662,\r

            """, stderr: ""))

        let html = try made.run(["scan", "--html", "-", "Downloads", "Library"])
        #expect(html.status == 0)
        #expect(html.stdout.contains("<h2>Safari bundles' partial files</h2>"))
        #expect(html.stdout.contains("<code>Library/Safari/Downloads.plist</code>"))
        #expect(html.stdout.contains("<code>DownloadHistory[1]</code>"))
        #expect(html.stdout.contains("<td>Library/Safari/Downloads.plist, DownloadHistory[0]</td>"))
        #expect(html.stdout.contains("<p class=\"summary\">8 files scanned: 0 blobs, 3 Safari bundle partial files, 1 orphan partial file, 0 errors</p>"))
        #expect(html.stdout.contains("<code>https://example.org/manual.pdf</code>"))
        #expect(html.stdout.contains("entry 2 is of type string, not dictionary"))
    }

    private func historySHA256(_ made: Made) throws -> String {
        let sum = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", made.directory.path("Library/Safari/Downloads.plist")])
        return String(String(decoding: sum.stdout, as: UTF8.self).prefix(64))
    }

    /// `explain NAME.download` reads the bundle as `resume` continues it: its URL and its
    /// validator in the resume data, its partial file in the bundle.
    @Test func explainReadsABundle() throws {
        let made = try Made()
        let result = try made.run(["explain", "Desktop/setup.pkg.download"])
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            continue at byte 2048
            checks:
              pass    get: the request is GET
              pass    validator: Last-Modified Tue, 15 Nov 2016 08:12:31 GMT
              unknown ranges: no stored response says; --probe asks the server
              skipped unchanged: only the server can tell: --probe asks it
              pass    partial-file: Desktop/setup.pkg.download/setup.pkg has 2048 bytes, the blob says 2048

            """, stderr: ""))
        let json = try made.run(["explain", "--json", "Desktop/setup.pkg.download"])
        let explained = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(explained["verdict"] as? String == "continue")
        #expect(explained["offset"] as? Int == 2048)
        // The modern layout keeps no validator: said, and the engine's overlap check continues it.
        let modern = try made.run(["explain", "Downloads/Example-2.4.1.dmg.download"])
        #expect(modern.status == 0)
        #expect(modern.stdout.hasPrefix("continue at byte 4096\n"))
        #expect(modern.stdout.contains("\n  fail    validator: neither an ETag nor a Last-Modified\n"))
        #expect(modern.stdout.contains("\n  pass    partial-file: Downloads/Example-2.4.1.dmg.download/Example-2.4.1.dmg has 4096 bytes, the blob says 4096\n"))
        let empty = try made.run(["explain", "Downloads/empty.download"])
        #expect(empty == ToolRunner.Result(status: 2, stdout: "", stderr: "Downloads/empty.download: error: cannot read Info.plist: No such file or directory\n"))
        let noURL = try made.run(["explain", "Downloads/odd.bin.download", "--tmp-dir", "Downloads"])
        #expect(noURL.status == 64)
        #expect(noURL.stderr.contains("--tmp-dir is for blobs; Downloads/odd.bin.download holds its partial file"))
    }

    // MARK: Hostile bundles

    /// Many junk files, a non-plist Info.plist, names that are not UTF-8: bounded, clear errors.
    @Test func hostileBundlesGiveClearErrors() throws {
        let made = try Made()
        let manager = FileManager.default
        let junk = made.directory.path("Hostile/junk.bin.download")
        try manager.createDirectory(atPath: junk, withIntermediateDirectories: true)
        try manager.copyItem(atPath: made.directory.path("Downloads/odd.bin.download/Info.plist"), toPath: junk + "/Info.plist")
        for index in 0..<2_000 {
            try Data().write(to: URL(fileURLWithPath: junk + "/._junk\(index)"))
        }
        try Data("data".utf8).write(to: URL(fileURLWithPath: junk + "/junk.bin"))
        let notPlist = made.directory.path("Hostile/bad.bin.download")
        try manager.createDirectory(atPath: notPlist, withIntermediateDirectories: true)
        try Data("this is no property list".utf8).write(to: URL(fileURLWithPath: notPlist + "/Info.plist"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: notPlist + "/bad.bin"))
        // A data file whose name has byte FF, beside the bundle's own.
        let odd = made.directory.path("Hostile/odd.bin.download")
        try manager.copyItem(atPath: made.directory.path("Downloads/odd.bin.download"), toPath: odd)
        try ScanNonUTF8Tests.write(Data("y".utf8), Array("Hostile/odd.bin.download/x".utf8) + [0xFF], in: made.directory.url)

        let junkInspect = try made.run(["inspect", "Hostile/junk.bin.download"])
        #expect(junkInspect.status == 0)
        #expect(junkInspect.stdout.contains("\n  partial file:     junk.bin, 4 bytes, as received\n") || junkInspect.stdout.contains("\n  partial file:     junk.bin, 4 bytes\n"))
        let bad = try made.run(["inspect", "Hostile/bad.bin.download"])
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(bad.stderr == "Hostile/bad.bin.download: error: Info.plist: 1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00\n")
        let badExplain = try made.run(["explain", "Hostile/bad.bin.download"])
        #expect(badExplain.status == 2)
        #expect(badExplain.stderr == bad.stderr)
        let scan = try made.run(["scan", "--json", "Hostile"])
        #expect(scan.status == 0)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        #expect((top["safariPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == [
            "Hostile/junk.bin.download/junk.bin", "Hostile/odd.bin.download/odd.bin",
        ])
        #expect((top["orphanPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == [
            "Hostile/bad.bin.download/bad.bin", "Hostile/odd.bin.download/x\\x{ff}",
        ])
        // Evidence is read only: every file is as it was.
        #expect(try manager.contentsOfDirectory(atPath: junk).count == 2_002)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notPlist + "/Info.plist")) == Data("this is no property list".utf8))
    }
}
