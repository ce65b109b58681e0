import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scan` says what it could not read, with the reason `inspect` gives, and goes on: a bundle's
/// `Info.plist` or Safari's `Downloads.plist` that does not read as Safari's, and a file read by
/// its name that is a link or a FIFO. Each case is also in a tree with a good bundle, which is
/// still read.
@Suite struct ScanUnreadableSourceTests {
    /// A binary property list of `objects` (offsets and references one byte wide), object 0 the top.
    static func binaryPlist(_ objects: [[UInt8]]) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(out.count))
            out += object
        }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] {
            out += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init)
        }
        return Data(out)
    }

    /// `{DownloadHistory: <itself>}`: a dictionary that contains itself.
    static let cyclicHistory = binaryPlist([[0xD1, 1, 0], [0x5F, 0x10, 15] + Array("DownloadHistory".utf8)])

    /// A modern bundle whose `Info.plist` reads: its data file is Safari's, not an orphan.
    static let goodInfo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>DownloadEntryURL</key><string>https://example.test/good.bin</string>\
        <key>DownloadEntryIdentifier</key><string>5A4D2C1B-0000-4000-8000-000000000001</string></dict></plist>
        """

    enum Broken: String, CaseIterable, CustomTestStringConvertible {
        case symbolicLink, fifo, empty, dtd, tooDeep, cycle, notAPlist
        var testDescription: String { rawValue }

        /// Makes `path`, the bundle's `Info.plist`, this broken.
        func make(at path: String) throws {
            switch self {
            case .symbolicLink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/etc/hostname")
            case .fifo: try #require(mkfifo(path, 0o600) == 0)
            case .empty: try Data().write(to: URL(fileURLWithPath: path))
            case .dtd:
                try Data("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a \"b\">]>\n<plist><dict/></plist>".utf8).write(to: URL(fileURLWithPath: path))
            case .tooDeep:
                let xml = "<plist>" + String(repeating: "<dict><key>k</key>", count: 20) + "<string>x</string>"
                    + String(repeating: "</dict>", count: 20) + "</plist>"
                try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            case .cycle: try ScanUnreadableSourceTests.cyclicHistory.write(to: URL(fileURLWithPath: path))
            case .notAPlist: try Data("bplist00junk".utf8).write(to: URL(fileURLWithPath: path))
            }
        }

        /// What `inspect` says of the bundle, after `x.download: error: `.
        var reason: String {
            switch self {
            case .symbolicLink: "Info.plist is a symbolic link, which is never followed inside evidence"
            case .fifo: "Info.plist is not a regular file (a FIFO, socket or device)"
            case .empty: "Info.plist: 1:1: the document is empty: expected <plist> or a value"
            case .dtd: "Info.plist: 2:17: an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it"
            case .tooDeep: "Info.plist: 1:296: root.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k: containers nested deeper than the limit of 16"
            case .cycle: "Info.plist: byte 0xa: object 0: DownloadHistory: object 0 contains itself"
            case .notAPlist: "Info.plist: byte 0xc: a binary property list needs at least 41 bytes (header, one object, trailer); this one has 12"
            }
        }

        /// What `scan` says of the `Info.plist`.
        var scanMessage: String {
            switch self {
            case .symbolicLink: "not read: it is a symbolic link, which is never followed inside evidence"
            case .fifo: "not read: it is not a regular file (a FIFO, socket or device)"
            default: "not read as Safari's: \(reason)"
            }
        }
    }

    /// `good.download` with a readable `Info.plist` and `x.download` with a broken one, each with
    /// a data file.
    static func tree(_ broken: Broken) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["good", "x"] {
            try FileManager.default.createDirectory(atPath: directory.path("\(name).download"), withIntermediateDirectories: true)
        }
        try Data(goodInfo.utf8).write(to: URL(fileURLWithPath: directory.path("good.download/Info.plist")))
        try Data("part".utf8).write(to: URL(fileURLWithPath: directory.path("good.download/good")))
        try Data("part".utf8).write(to: URL(fileURLWithPath: directory.path("x.download/x")))
        try broken.make(at: directory.path("x.download/Info.plist"))
        return directory
    }

    @Test(arguments: Broken.allCases)
    func aBrokenInfoPlistIsAnErrorOfThatFileInEveryFormat(_ broken: Broken) throws {
        let directory = try Self.tree(broken)
        let errorLine = "./x.download/Info.plist: error: \(broken.scanMessage)\n"

        let json = try ToolRunner.run(["scan", "--json", "."], in: directory.url)
        #expect(json.status == 0)
        #expect(json.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let errors = try #require(document["errors"] as? [[String: String]])
        #expect(errors == [["path": "./x.download/Info.plist", "message": broken.scanMessage]])
        // The good bundle is still read; the broken one's data file is an orphan, and said why above.
        let safari = (document["safariPartialFiles"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        let orphans = (document["orphanPartialFiles"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(safari == ["./good.download/good"])
        #expect(orphans == ["./x.download/x"])

        let lines = try ToolRunner.run(["scan", "--jsonl", "."], in: directory.url)
        #expect(lines.status == 0)
        #expect(lines.stderr == errorLine)
        let last = try #require(lines.stdout.split(separator: "\n").last)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])
        #expect(error == ["finding": "error", "path": "./x.download/Info.plist", "message": broken.scanMessage])

        let text = try ToolRunner.run(["scan", "."], in: directory.url)
        #expect(text.status == 0)
        #expect(text.stderr == errorLine)
        // A link or a FIFO is no file of the count: the walk never opens it.
        let files = broken == .symbolicLink || broken == .fifo ? 3 : 4
        #expect(text.stdout.hasSuffix("\n\(files) files scanned: 0 blobs, 1 Safari bundle partial file, 1 orphan partial file, 1 error\n"))

        for format in ["--csv", "--timeline"] {
            let table = try ToolRunner.run(["scan", format, "."], in: directory.url)
            #expect(table.status == 0, "\(format)")
            #expect(table.stderr == errorLine, "\(format)")
        }
        let page = directory.path("case.html")
        let html = try ToolRunner.run(["scan", "--html", page, "."], in: directory.url)
        #expect(html.status == 0)
        let written = try String(contentsOfFile: page, encoding: .utf8)
        #expect(written.contains("./x.download/Info.plist"))
    }

    @Test(arguments: Broken.allCases)
    func inspectGivesTheSameReason(_ broken: Broken) throws {
        let directory = try Self.tree(broken)
        let result = try ToolRunner.run(["inspect", "x.download"], in: directory.url)
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "x.download: error: \(broken.reason)\n"))
    }

    @Test func aCyclicListOfDownloadsIsAnErrorAndTheRestIsRead() throws {
        let directory = try Self.tree(.empty)
        try FileManager.default.createDirectory(atPath: directory.path("Library/Safari"), withIntermediateDirectories: true)
        try Self.cyclicHistory.write(to: URL(fileURLWithPath: directory.path("Library/Safari/Downloads.plist")))
        let json = try ToolRunner.run(["scan", "--json", "."], in: directory.url)
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let errors = try #require(document["errors"] as? [[String: String]])
        #expect(errors == [
            ["path": "./Library/Safari/Downloads.plist",
             "message": "not read as Safari's: Downloads.plist: byte 0xa: object 0: DownloadHistory: object 0 contains itself"],
            ["path": "./x.download/Info.plist", "message": Broken.empty.scanMessage],
        ])
        let safari = (document["safariPartialFiles"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(safari == ["./good.download/good"])
    }

    @Test func aManifestThatIsALinkIsSaidNotFollowed() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("backup"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path("backup/Manifest.plist")))
        try FileManager.default.createSymbolicLink(atPath: directory.path("backup/Manifest.db"), withDestinationPath: "Manifest.plist")
        try FileManager.default.createSymbolicLink(atPath: directory.path("backup/Manifest.mbdb"), withDestinationPath: "/nonexistent")
        let message = "skipped: a symbolic link, not followed: the folder is not read as a backup"
        for root in ["backup", "."] {
            let prefix = root == "." ? "./backup" : "backup"
            let result = try ToolRunner.run(["scan", "--jsonl", root], in: directory.url)
            #expect(result.status == 0, "\(root)")
            #expect(result.stdout == """
                {"finding":"error","path":"\(prefix)/Manifest.db","message":"\(message) (its Manifest.db must be a regular file)"}
                {"finding":"error","path":"\(prefix)/Manifest.mbdb","message":"\(message) (its Manifest.mbdb must be a regular file)"}

                """, "\(root)")
        }
    }

    @Test func aLinkOrAFIFONamedAsNothingReadByNameIsPassedOverQuietly() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.path("Info.plist"), withDestinationPath: "/etc/hostname")
        try #require(mkfifo(directory.path("notes.plist"), 0o600) == 0)
        let result = try ToolRunner.run(["scan", "."], in: directory.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: "0 files scanned: 0 blobs, 0 orphan partial files, 0 errors\n", stderr: ""))
    }
}
