import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool scan` on a synthetic tree of two app containers: blobs under a hashed name, in an
/// NSUserDefaults plist, in a download manager's keyed-archive cache and in the Network-framework
/// format, partial files, an orphan, noise, an unreadable folder and file, a FIFO and symbolic-link
/// loops; text, JSON and CSV compared field by field.
@Suite struct ScanTests {
    static let uuidA = "0A1B2C3D-0000-4000-8000-00000000000A"
    static let uuidB = "0A1B2C3D-0000-4000-8000-00000000000B"
    static let containerA = "tree/Containers/Data/Application/\(uuidA)"
    static let containerB = "tree/Containers/Data/Application/\(uuidB)"
    /// 2026-01-02T03:04:05Z: every file gets it, so `modified` is exact.
    static let modified = Date(timeIntervalSince1970: 1_767_323_045)
    static let modifiedText = "2026-01-02T03:04:05Z"
    static let looseName = "odd, \"name\".plist"
    static let looseURL = "https://example.com/a,b?q=\"x\""
    static let devicePartialPath = "/private/var/mobile/Containers/Data/Application/\(uuidB)/Documents/partial.bin"

    /// The tree, built fresh for each test in a folder every user can read (the scan runs as
    /// `nobody` when the tests run as root, so that the locked folder really cannot be opened).
    final class Tree {
        let directory: TemporaryDirectory
        var root: URL { directory.url }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
            let a = ScanTests.containerA, b = ScanTests.containerB

            // A: a keyed-archive blob under a hashed name, with its partial file.
            var hashed = ResumeData(container: .keyedArchive)
            hashed.infoVersion = 4
            hashed.tempFileName = "CFNetworkDownload_H4sh3d.tmp"
            hashed.bytesReceived = 4096
            hashed.downloadURL = "https://cdn.example.com/video.mp4"
            let url = try #require(URL(string: "https://cdn.example.com/video.mp4"))
            try hashed.setRequest(URLRequestArchive(url: url, headers: [("Range", "bytes=4096-")]), .current)
            try hashed.setRequest(URLRequestArchive(url: url), .original)
            hashed.entityTag = "\"v1\""
            try write(hashed.encoded(), "\(a)/Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592")
            try write(Data(repeating: 7, count: 4096), "\(a)/tmp/CFNetworkDownload_H4sh3d.tmp")

            // A: an XML blob inside NSUserDefaults, whose partial file is shorter than it says.
            var prefs = ResumeData(container: .xml)
            prefs.infoVersion = 2
            prefs.tempFileName = "CFNetworkDownload_Pr3fs.tmp"
            prefs.bytesReceived = 100
            prefs.downloadURL = "https://example.org/podcast.mp3"
            prefs.serverDownloadDate = "Tue, 17 Nov 2026 09:12:44 GMT"
            let defaults: PropertyListValue = [
                "pending": [
                    ["title": "one", "resumeData": .data(Data("not a blob".utf8))],
                    ["title": "two", "resumeData": .data(try prefs.encoded())],
                ],
                "volume": 0.5,
            ]
            try write(PropertyListWriter().write(defaults, as: .binary), "\(a)/Library/Preferences/com.example.app.plist")
            try write(Data(repeating: 1, count: 60), "\(a)/tmp/CFNetworkDownload_Pr3fs.tmp")

            // A: an orphan partial file, noise, a locked folder, link loops.
            try write(Data(repeating: 2, count: 1000), "\(a)/tmp/CFNetworkDownload_0rphan.tmp")
            try write(Data("shopping list\n".utf8), "\(a)/Documents/notes.txt")
            try write(Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n".utf8), "\(a)/Documents/image.svg")
            try write(Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131) }), "\(a)/Documents/big.bin")
            try write(Data(), "\(a)/Library/Preferences/empty")
            try write(prefs.encoded(), "\(a)/Documents/locked/hidden.plist")
            try FileManager.default.createSymbolicLink(atPath: path("\(a)/Documents/loop"), withDestinationPath: "..")
            try FileManager.default.createSymbolicLink(atPath: path("\(a)/self"), withDestinationPath: "self")

            // B: a download manager's keyed-archive cache holding a binary blob that names its
            // partial file by the device's LocalPath.
            var cached = ResumeData(container: .binary)
            cached.bytesReceived = 2048
            cached.localPath = ScanTests.devicePartialPath
            cached.downloadURL = "https://files.example.net/archive.zip"
            cached.entityTag = "\"zip\""
            let task = ArchivedValue.object(ArchivedObject(
                className: "DMDownloadTask", classChain: ["DMDownloadTask", "NSObject"],
                fields: [
                    .init(key: "identifier", value: .reference(.string("t1"))),
                    .init(key: "resumeData", value: .reference(.data(try cached.encoded()))),
                ]))
            let cache = ArchivedValue.dictionary([
                .init(key: "version", value: .integer(2)),
                .init(key: "tasks", value: .array([task])),
            ])
            try write(KeyedArchive(encoding: cache).data(), "\(b)/Library/Caches/DownloadManager/cache.archive")
            try write(Data(repeating: 3, count: 2048), "\(b)/Documents/partial.bin")
            try write(PropertyListWriter().write(["theme": "dark"], as: .xml), "\(b)/Library/Preferences/settings.plist")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("\(b)/tmp"), withIntermediateDirectories: true)
            // B: a Network-framework blob (the iOS 26 sample), its partial file named by tempFileName.
            try write(Data(contentsOf: EndToEnd.samples.appendingPathComponent("nwurlsession-ios26.resumedata")), "\(b)/Library/Caches/nw/f00d")
            try write(Data(repeating: 5, count: 3000), "\(b)/tmp/CFNetworkDownload_Occ2S2.tmp")
            // A WebKit download folder: its data file is tied to its bundle, no orphan.
            try write(Data(repeating: 4, count: 500), "\(b)/Downloads/movie.mov.download/movie.mov")
            try write(PropertyListWriter().write(["DownloadEntryURL": "https://example.com/movie.mov"], as: .xml),
                      "\(b)/Downloads/movie.mov.download/Info.plist")
            // A link to a blob is not followed, so the blob is reported once.
            try FileManager.default.createSymbolicLink(atPath: path("\(b)/link-to-blob"),
                                                       withDestinationPath: "../\(ScanTests.uuidA)/Library/Caches")
            try write(Data("# notes\n".utf8), "tree/loose/README.md")
            // Outside any app container, with a name and a URL that CSV must quote.
            var loose = ResumeData(container: .xml)
            loose.tempFileName = "CFNetworkDownload_L00se.tmp"
            loose.bytesReceived = 10
            loose.downloadURL = ScanTests.looseURL
            loose.entityTag = "\"l\""
            try write(loose.encoded(), "tree/loose/\(ScanTests.looseName)")

            // A pipe would block a reader that opened it; a file no one may read is an error.
            try #require(mkfifo(path("\(a)/Documents/pipe"), 0o644) == 0)
            try write(prefs.encoded(), "\(a)/Documents/secret.plist")
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path("\(a)/Documents/secret.plist"))
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path("\(a)/Documents/locked"))
        }

        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

        private func write(_ data: Data, _ relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            try FileManager.default.setAttributes([.modificationDate: ScanTests.modified], ofItemAtPath: url.path)
        }

        /// Runs `resumetool` in the tree's folder; as `nobody` when the tests run as root (root
        /// reads a mode-000 folder), so opening the locked folder really fails.
        func run(_ arguments: [String]) throws -> ToolRunner.Result {
            var program = ToolRunner.executable
            var arguments = arguments
            if geteuid() == 0 {
                arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", program.path] + arguments
                program = URL(fileURLWithPath: "/usr/bin/setpriv")
            }
            let output = try ToolRunner.capture(program, arguments, in: root)
            return .init(status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                         stderr: String(decoding: output.stderr, as: UTF8.self))
        }

        deinit {
            // Give the folder back its permissions so it can be removed.
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path("\(ScanTests.containerA)/Documents/locked"))
        }
    }

    static let lockedError = """
        \(containerA)/Documents/locked: error: cannot read the folder: Permission denied
        \(containerA)/Documents/secret.plist: error: cannot open: Permission denied

        """

    @Test func text() throws {
        let tree = try Tree()
        let result = try tree.run(["scan", "tree"])
        #expect(result.status == 0)
        #expect(result.stderr == Self.lockedError)
        #expect(result.stdout == Self.expectedText)
    }

    static let expectedText = """
        tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A:
          Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592
            container:        keyed-archive
            download URL:     https://cdn.example.com/video.mp4
            bytes received:   4,096 bytes (4.0 KiB)
            temp file:        CFNetworkDownload_H4sh3d.tmp
            local path:       -
            partial file:     tmp/CFNetworkDownload_H4sh3d.tmp, 4,096 bytes (4.0 KiB), as received
            modified:         2026-01-02T03:04:05Z
            findings:         none
          Library/Preferences/com.example.app.plist, at pending[1].resumeData
            container:        xml
            download URL:     https://example.org/podcast.mp3
            bytes received:   100 bytes
            temp file:        CFNetworkDownload_Pr3fs.tmp
            local path:       -
            partial file:     tmp/CFNetworkDownload_Pr3fs.tmp, 60 bytes, 40 fewer than received
            modified:         2026-01-02T03:04:05Z
            findings:
              error[temp-file-size] NSURLSessionResumeInfoTempFileName: the partial file tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A/tmp/CFNetworkDownload_Pr3fs.tmp has 60 bytes, fewer than the 100 received
          orphan partial file: tmp/CFNetworkDownload_0rphan.tmp, 1,000 bytes, modified 2026-01-02T03:04:05Z

        tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000B:
          Library/Caches/DownloadManager/cache.archive, at tasks[0].resumeData
            container:        binary
            download URL:     https://files.example.net/archive.zip
            bytes received:   2,048 bytes (2.0 KiB)
            temp file:        -
            local path:       /private/var/mobile/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000B/Documents/partial.bin
            partial file:     Documents/partial.bin, 2,048 bytes (2.0 KiB), as received
            modified:         2026-01-02T03:04:05Z
            findings:         none
          Library/Caches/nw/f00d
            container:        nwurlsession
            download URL:     http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg
            bytes received:   -
            temp file:        CFNetworkDownload_Occ2S2.tmp
            local path:       /private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/CFNetworkDownload_Occ2S2.tmp
            partial file:     tmp/CFNetworkDownload_Occ2S2.tmp, 3,000 bytes (2.9 KiB)
            modified:         2026-01-02T03:04:05Z
            findings:         none
          Safari bundle's partial file: Downloads/movie.mov.download/movie.mov, 500 bytes, modified 2026-01-02T03:04:05Z
            Safari download:  Info.plist (modern layout)
            download URL:     https://example.com/movie.mov
            bytes received:   -
            validator:        none (no key of the modern layout is known to hold one)

        outside any app container:
          tree/loose/odd, "name".plist
            container:        xml
            download URL:     https://example.com/a,b?q="x"
            bytes received:   10 bytes
            temp file:        CFNetworkDownload_L00se.tmp
            local path:       -
            partial file:     -
            modified:         2026-01-02T03:04:05Z
            findings:
              error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file CFNetworkDownload_L00se.tmp was not looked for: the blob is in no app container, whose tmp/ folder would hold it

        No blob names the orphan partial files; `resumetool rebuild --partial FILE --url URL` makes one.
        19 files scanned: 5 blobs, 1 Safari bundle partial file, 1 orphan partial file, 2 errors

        """

    @Test func json() throws {
        let tree = try Tree()
        let result = try tree.run(["scan", "--json", "tree/"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(top.keys) == ["blobs", "orphanPartialFiles", "errors", "safariPartialFiles"])
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        try #require(blobs.count == 5)
        let fields: Set<String> = ["path", "keyPath", "appContainer", "container", "downloadURL", "bytesReceived", "tempFileName",
                                   "localPath", "partialFile", "modified", "findings",
                                   // Issue 25: the evidence fields.
                                   "bundleID", "sha256", "size", "changed", "created", "mode", "source",
                                   // Why sha256 is null when the file was not hashed (null here).
                                   "hashSkipped"]
        for blob in blobs {
            #expect(Set(blob.keys) == fields)
            #expect(blob["bundleID"] is NSNull)
            // Linux's stat has no birth time; the status change time is when the test wrote the file.
            #expect(blob["created"] is NSNull)
            #expect((blob["changed"] as? String)?.hasPrefix("20") == true)
            #expect(blob["mode"] as? String == "100644")
            let source = try #require(blob["source"] as? [String: Any])
            #expect(source["kind"] as? String == "folder")
            #expect(source["root"] as? String == "tree")
            #expect(source["inner"] as? String == String((blob["path"] as? String ?? "").dropFirst("tree/".count)))
        }

        let hashed = blobs[0]
        #expect(hashed["path"] as? String == "\(Self.containerA)/Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592")
        #expect(hashed["keyPath"] is NSNull)
        #expect(hashed["appContainer"] as? String == Self.containerA)
        #expect(hashed["container"] as? String == "keyed-archive")
        #expect(hashed["downloadURL"] as? String == "https://cdn.example.com/video.mp4")
        #expect(hashed["bytesReceived"] as? Int == 4096)
        #expect(hashed["tempFileName"] as? String == "CFNetworkDownload_H4sh3d.tmp")
        #expect(hashed["localPath"] is NSNull)
        let hashedPartial = try #require(hashed["partialFile"] as? [String: Any])
        #expect(hashedPartial["path"] as? String == "\(Self.containerA)/tmp/CFNetworkDownload_H4sh3d.tmp")
        #expect(hashedPartial["size"] as? Int == 4096)
        #expect(hashedPartial["sha256"] as? String == "c9ac7b0624824f844f6c7f3d50fab9741a8914e878467e8daaedca143a34d90b")
        #expect(hashedPartial["modified"] as? String == Self.modifiedText)
        #expect(hashed["modified"] as? String == Self.modifiedText)
        #expect(hashed["size"] as? Int == 3875)
        #expect(hashed["sha256"] as? String == "2f92ac9fe566f3ce540a2bc02f8253f2af45c1a1034e2984351cfe55e14d50d4")
        #expect((hashed["findings"] as? [Any])?.isEmpty == true)

        let prefs = blobs[1]
        #expect(prefs["path"] as? String == "\(Self.containerA)/Library/Preferences/com.example.app.plist")
        #expect(prefs["keyPath"] as? String == "pending[1].resumeData")
        #expect(prefs["appContainer"] as? String == Self.containerA)
        #expect(prefs["container"] as? String == "xml")
        #expect(prefs["downloadURL"] as? String == "https://example.org/podcast.mp3")
        #expect(prefs["bytesReceived"] as? Int == 100)
        #expect(prefs["tempFileName"] as? String == "CFNetworkDownload_Pr3fs.tmp")
        #expect(prefs["localPath"] is NSNull)
        let prefsPartial = try #require(prefs["partialFile"] as? [String: Any])
        #expect(prefsPartial["path"] as? String == "\(Self.containerA)/tmp/CFNetworkDownload_Pr3fs.tmp")
        #expect(prefsPartial["size"] as? Int == 60)
        #expect(prefs["modified"] as? String == Self.modifiedText)
        let prefsFindings = try #require(prefs["findings"] as? [[String: Any]])
        #expect(prefsFindings.count == 1)
        #expect(prefsFindings.first?["severity"] as? String == "error")
        #expect(prefsFindings.first?["code"] as? String == "temp-file-size")
        #expect(prefsFindings.first?["message"] as? String
                == "the partial file \(Self.containerA)/tmp/CFNetworkDownload_Pr3fs.tmp has 60 bytes, fewer than the 100 received")
        #expect(prefsFindings.first?["key"] as? String == "NSURLSessionResumeInfoTempFileName")

        let cached = blobs[2]
        #expect(cached["path"] as? String == "\(Self.containerB)/Library/Caches/DownloadManager/cache.archive")
        #expect(cached["keyPath"] as? String == "tasks[0].resumeData")
        #expect(cached["appContainer"] as? String == Self.containerB)
        #expect(cached["container"] as? String == "binary")
        #expect(cached["downloadURL"] as? String == "https://files.example.net/archive.zip")
        #expect(cached["bytesReceived"] as? Int == 2048)
        #expect(cached["tempFileName"] is NSNull)
        #expect(cached["localPath"] as? String == Self.devicePartialPath)
        let cachedPartial = try #require(cached["partialFile"] as? [String: Any])
        #expect(cachedPartial["path"] as? String == "\(Self.containerB)/Documents/partial.bin")
        #expect(cachedPartial["size"] as? Int == 2048)
        #expect(cached["modified"] as? String == Self.modifiedText)
        #expect((cached["findings"] as? [Any])?.isEmpty == true)

        let network = blobs[3]
        #expect(network["path"] as? String == "\(Self.containerB)/Library/Caches/nw/f00d")
        #expect(network["keyPath"] is NSNull)
        #expect(network["appContainer"] as? String == Self.containerB)
        #expect(network["container"] as? String == "nwurlsession")
        #expect(network["downloadURL"] as? String == "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg")
        #expect(network["bytesReceived"] is NSNull)
        #expect(network["tempFileName"] as? String == "CFNetworkDownload_Occ2S2.tmp")
        #expect(network["localPath"] as? String
                == "/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/CFNetworkDownload_Occ2S2.tmp")
        let networkPartial = try #require(network["partialFile"] as? [String: Any])
        #expect(networkPartial["path"] as? String == "\(Self.containerB)/tmp/CFNetworkDownload_Occ2S2.tmp")
        #expect(networkPartial["size"] as? Int == 3000)
        #expect(network["modified"] as? String == Self.modifiedText)

        let loose = blobs[4]
        #expect(loose["path"] as? String == "tree/loose/\(Self.looseName)")
        #expect(loose["keyPath"] is NSNull)
        #expect(loose["appContainer"] is NSNull)
        #expect(loose["container"] as? String == "xml")
        #expect(loose["downloadURL"] as? String == Self.looseURL)
        #expect(loose["bytesReceived"] as? Int == 10)
        #expect(loose["tempFileName"] as? String == "CFNetworkDownload_L00se.tmp")
        #expect(loose["localPath"] is NSNull)
        #expect(loose["partialFile"] is NSNull)
        #expect(loose["modified"] as? String == Self.modifiedText)
        let looseFindings = try #require(loose["findings"] as? [[String: Any]])
        #expect(looseFindings.map { $0["code"] as? String } == ["temp-file-missing"])
        #expect(looseFindings.map { $0["message"] as? String } == ["the partial file CFNetworkDownload_L00se.tmp was not looked for: the blob is in no app container, whose tmp/ folder would hold it"])

        // The orphan and the WebKit folder's data file, tied to its bundle: the same members, and
        // what its Info.plist says.
        let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
        let safari = try #require(top["safariPartialFiles"] as? [[String: Any]])
        let files = orphans + safari
        #expect(files.map { $0["path"] as? String } == [
            "\(Self.containerA)/tmp/CFNetworkDownload_0rphan.tmp",
            "\(Self.containerB)/Downloads/movie.mov.download/movie.mov",
        ])
        #expect(orphans.count == 1)
        #expect(files.map { $0["size"] as? Int } == [1000, 500])
        #expect(files.map { $0["modified"] as? String } == [Self.modifiedText, Self.modifiedText])
        #expect(files.map { $0["appContainer"] as? String } == [Self.containerA, Self.containerB])
        #expect(files.map { $0["sha256"] as? String } == [
            "62923de3afb82e5f258f64af6e47a62706a63680e3fd398e2806e1a4d576809c",
            "5b633ef5eee73982ec9aad478cb3612342e14de01a974b7ac6554dd26d59ba52",
        ])
        let keys: Set<String> = ["path", "appContainer", "size", "modified", "bundleID", "sha256", "changed", "created", "mode", "source", "hashSkipped"]
        #expect(files.map { Set($0.keys) } == [keys, keys.union(["safariDownload"])])
        #expect((safari.last?["safariDownload"] as? [String: Any])?["url"] as? String == "https://example.com/movie.mov")

        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == ["\(Self.containerA)/Documents/locked", "\(Self.containerA)/Documents/secret.plist"])
        #expect(errors.map { $0["message"] as? String } == ["cannot read the folder: Permission denied", "cannot open: Permission denied"])
    }

    @Test func csv() throws {
        let tree = try Tree()
        let result = try tree.run(["scan", "--csv", "tree"])
        #expect(result.status == 0)
        #expect(result.stderr == Self.lockedError)
        let rows = try Self.parseCSV(result.stdout)
        #expect(rows.first == ["path", "keyPath", "appContainer", "container", "downloadURL", "bytesReceived", "tempFileName",
                               "localPath", "partialFilePath", "partialFileSize", "modified", "findings",
                               "bundleID", "sourceKind", "sourceRoot", "sourceInner", "sha256", "size", "changed", "created", "partialFileSHA256",
                               "partialFileModified", "partialFileChanged", "partialFileCreated", "finding", "hashSkipped"])
        // The status change time is when the test wrote the file: present, then left out of the comparison.
        let changedColumn = 18
        for row in rows.dropFirst() { #expect(row.count == 26 && row[changedColumn].hasPrefix("20") && row.last == "") }
        func inner(_ path: String) -> String { String(path.dropFirst("tree/".count)) }
        // The blobs, then the orphan partial file and the Safari bundle's.
        try #require(rows.count == 1 + 5 + 2)
        let blobRows = Array(rows[1...5])
        #expect(rows.dropFirst().map { $0[24] } == ["blob", "embedded-blob", "embedded-blob", "blob", "blob", "orphan-partial-file", "safari-partial-file"])
        // The partial file's times: modified as written, changed when written, no birth time on Linux.
        #expect(blobRows.map { $0[21] } == [Self.modifiedText, Self.modifiedText, Self.modifiedText, Self.modifiedText, ""])
        #expect(blobRows.map { $0[22].hasPrefix("20") } == [true, true, true, true, false])
        #expect(blobRows.map { $0[23] } == ["", "", "", "", ""])
        #expect(Array(rows[6...7]).map { Array($0.prefix(18)) + Array($0[19...23]) } == [
            ["\(Self.containerA)/tmp/CFNetworkDownload_0rphan.tmp", "", Self.containerA, "", "", "", "", "", "", "", Self.modifiedText, "",
             "", "folder", "tree", inner("\(Self.containerA)/tmp/CFNetworkDownload_0rphan.tmp"),
             "62923de3afb82e5f258f64af6e47a62706a63680e3fd398e2806e1a4d576809c", "1000", "", "", "", "", ""],
            ["\(Self.containerB)/Downloads/movie.mov.download/movie.mov", "", Self.containerB, "", "https://example.com/movie.mov", "", "", "", "", "", Self.modifiedText, "",
             "", "folder", "tree", inner("\(Self.containerB)/Downloads/movie.mov.download/movie.mov"),
             "5b633ef5eee73982ec9aad478cb3612342e14de01a974b7ac6554dd26d59ba52", "500", "", "", "", "", ""],
        ])
        #expect(blobRows.map { Array($0.prefix(12)) } == [
            ["\(Self.containerA)/Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592", "", Self.containerA, "keyed-archive",
             "https://cdn.example.com/video.mp4", "4096", "CFNetworkDownload_H4sh3d.tmp", "",
             "\(Self.containerA)/tmp/CFNetworkDownload_H4sh3d.tmp", "4096", Self.modifiedText, ""],
            ["\(Self.containerA)/Library/Preferences/com.example.app.plist", "pending[1].resumeData", Self.containerA, "xml",
             "https://example.org/podcast.mp3", "100", "CFNetworkDownload_Pr3fs.tmp", "",
             "\(Self.containerA)/tmp/CFNetworkDownload_Pr3fs.tmp", "60", Self.modifiedText, "error[temp-file-size]"],
            ["\(Self.containerB)/Library/Caches/DownloadManager/cache.archive", "tasks[0].resumeData", Self.containerB, "binary",
             "https://files.example.net/archive.zip", "2048", "", Self.devicePartialPath,
             "\(Self.containerB)/Documents/partial.bin", "2048", Self.modifiedText, ""],
            ["\(Self.containerB)/Library/Caches/nw/f00d", "", Self.containerB, "nwurlsession",
             "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg", "", "CFNetworkDownload_Occ2S2.tmp",
             "/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/CFNetworkDownload_Occ2S2.tmp",
             "\(Self.containerB)/tmp/CFNetworkDownload_Occ2S2.tmp", "3000", Self.modifiedText, ""],
            ["tree/loose/\(Self.looseName)", "", "", "xml", Self.looseURL, "10", "CFNetworkDownload_L00se.tmp", "", "", "",
             Self.modifiedText, "error[temp-file-missing]"],
        ])
        #expect(blobRows.map { Array($0[12..<18]) + Array($0[19...20]) } == [
            ["", "folder", "tree", inner("\(Self.containerA)/Library/Caches/com.example.dl/5d41402abc4b2a76b9719d911017c592"),
             "2f92ac9fe566f3ce540a2bc02f8253f2af45c1a1034e2984351cfe55e14d50d4", "3875", "",
             "c9ac7b0624824f844f6c7f3d50fab9741a8914e878467e8daaedca143a34d90b"],
            ["", "folder", "tree", inner("\(Self.containerA)/Library/Preferences/com.example.app.plist"),
             "edcc88a8ca0ad73397c737cd24122b52e85b053143d8da77b76ec1c8d4cead13", "744", "",
             "5e4084eff2f37d637e6502bf9472b0029755bbd130ebb52c8c33bb8148c31fd2"],
            ["", "folder", "tree", inner("\(Self.containerB)/Library/Caches/DownloadManager/cache.archive"),
             "bdd32a3c9b534d002a65ec288c653ed70e37048b62f1563ccdae7cd27321d6fd", "858", "",
             "f8f32f68c7ab74ce932713f801e0499f45e1721b69fca6801b97f2ffec39d7f2"],
            ["", "folder", "tree", inner("\(Self.containerB)/Library/Caches/nw/f00d"),
             "6b26e77f58e96b812a668af85ed802176395566b15ed5935dce5dc94257d7aa1", "2967", "",
             "27215f3afdd7525aebf98de69a86634257f380f75dd31f4aa743ed8fff5c03e4"],
            ["", "folder", "tree", "loose/\(Self.looseName)", "69cf06edfb14951d229a81ba4689aedbbe9feb195eba8e3bd3b07d31a94e6e20", "494", "", ""],
        ])
        #expect(result.stdout.hasSuffix("\r\n"))
    }

    /// RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break, and
    /// quotes doubled inside quotes.
    static func parseCSV(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        characters.removeFirst()
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(character)
                }
            } else if character == "\"" {
                try #require(field.isEmpty, "a quote inside an unquoted field")
                quoted = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\r" {
                try #require(characters.popFirst() == "\n", "a CR not followed by LF")
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                try #require(character != "\n", "a bare LF ends a line")
                field.unicodeScalars.append(character)
            }
        }
        try #require(!quoted && row.isEmpty && field.isEmpty, "the last line does not end with CRLF")
        return rows
    }

    @Test func unreadableRootExitsTwo() throws {
        let tree = try Tree()
        let result = try tree.run(["scan", "--json", "missing", "tree/loose"])
        #expect(result.status == 2)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == ["missing"])
        #expect(errors.map { $0["message"] as? String } == ["cannot read the folder: No such file or directory"])
        // The other root is still scanned.
        #expect((top["blobs"] as? [[String: Any]])?.map { $0["path"] as? String } == ["tree/loose/\(Self.looseName)"])
        let text = try tree.run(["scan", "missing"])
        #expect(text.status == 2)
        #expect(text.stderr == "missing: error: cannot read the folder: No such file or directory\n")
        #expect(text.stdout == "0 files scanned: 0 blobs, 0 orphan partial files, 1 error\n")
    }

    /// A LocalPath that names a file in the tree by its absolute path is found from a root given
    /// relative to the working folder (as `scan .` in a Mac's home), and that file is no orphan.
    @Test func absoluteLocalPathInsideTheTree() throws {
        let directory = try TemporaryDirectory()
        let home = directory.url.appendingPathComponent("home")
        let partial = home.appendingPathComponent("Downloads/disk.img.download/disk.img")
        try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 9, count: 300).write(to: partial)
        var resume = ResumeData(container: .keyedArchiveXML)
        resume.downloadURL = "https://example.com/disk.img"
        resume.bytesReceived = 300
        resume.localPath = try #require(realpath(partial.path, nil).map { path in defer { free(path) }; return String(cString: path) })
        resume.serverDownloadDate = "Tue, 17 Nov 2026 09:12:44 GMT"
        let blob = home.appendingPathComponent("Library/Caches/com.example.browser/resume")
        try FileManager.default.createDirectory(at: blob.deletingLastPathComponent(), withIntermediateDirectories: true)
        try resume.encoded().write(to: blob)

        let result = try ToolRunner.run(["scan", "--csv", "home"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let rows = try Self.parseCSV(result.stdout)
        try #require(rows.count == 2)
        let row = Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
        #expect(row["path"] == "home/Library/Caches/com.example.browser/resume")
        #expect(row["appContainer"] == "home")
        #expect(row["container"] == "keyed-archive-xml")
        #expect(row["localPath"] == resume.localPath)
        #expect(row["partialFilePath"] == "home/Downloads/disk.img.download/disk.img")
        #expect(row["partialFileSize"] == "300")
        #expect(row["findings"] == "")
        let text = try ToolRunner.run(["scan", "home"], in: directory.url)
        #expect(text.stdout.hasSuffix("2 files scanned: 1 blob, 0 orphan partial files, 0 errors\n"))
    }

    /// A property list over 64 MiB is not read (its first bytes are all that is looked at); one
    /// just under the limit is. Both are a blob followed by white space, which XML allows.
    /// A blob whose partial file is not where scan looked, while a file of that name sits
    /// elsewhere in the tree (and is listed as an orphan): the finding says where scan looked,
    /// or why it looked nowhere, and where the file of that name is (issue 34).
    @Test func aPartialFileOfTheSameNameElsewhereIsNamed() throws {
        let directory = try TemporaryDirectory()
        let blob = try Data(contentsOf: EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
        let partial = try Data(contentsOf: EndToEnd.samples.appendingPathComponent("CFNetworkDownload_Occ2S2.tmp"))
        // As in Samples/: the blob and the file side by side, in no app container.
        try FileManager.default.createDirectory(atPath: directory.path("loose"), withIntermediateDirectories: true)
        try blob.write(to: URL(fileURLWithPath: directory.path("loose/blob.resumedata")))
        try partial.write(to: URL(fileURLWithPath: directory.path("loose/CFNetworkDownload_Occ2S2.tmp")))
        let loose = try ToolRunner.run(["scan", "--json", "loose"], in: directory.url)
        #expect(loose.status == 0)
        let looseTop = try #require(try JSONSerialization.jsonObject(with: Data(loose.stdout.utf8)) as? [String: Any])
        let looseBlobs = try #require(looseTop["blobs"] as? [[String: Any]])
        #expect(looseBlobs.map { ($0["findings"] as? [[String: Any]])?.map { $0["message"] as? String } } == [[
            "the partial file CFNetworkDownload_Occ2S2.tmp was not looked for: the blob is in no app container, whose tmp/ folder would hold it; "
                + "a file of that name is at loose/CFNetworkDownload_Occ2S2.tmp",
        ]])
        #expect((looseTop["orphanPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == ["loose/CFNetworkDownload_Occ2S2.tmp"])

        // In a container whose tmp/ lacks it, while Documents/ holds a file of that name.
        let container = "Application/\(Self.uuidA)"
        for folder in ["tmp", "Library", "Documents"] {
            try FileManager.default.createDirectory(atPath: directory.path("\(container)/\(folder)"), withIntermediateDirectories: true)
        }
        try blob.write(to: URL(fileURLWithPath: directory.path("\(container)/Library/blob.resumedata")))
        try partial.write(to: URL(fileURLWithPath: directory.path("\(container)/Documents/CFNetworkDownload_Occ2S2.tmp")))
        let text = try ToolRunner.run(["scan", "Application"], in: directory.url)
        #expect(text.status == 0)
        #expect(text.stdout.contains("""
                findings:
                  error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file \(container)/tmp/CFNetworkDownload_Occ2S2.tmp \
            does not exist; a file of that name is at \(container)/Documents/CFNetworkDownload_Occ2S2.tmp
              orphan partial file: Documents/CFNetworkDownload_Occ2S2.tmp, 4,096 bytes (4.0 KiB), modified
            """))
    }

    @Test func largePropertyListsAreNotRead() throws {
        let directory = try TemporaryDirectory()
        var resume = ResumeData(container: .xml)
        resume.downloadURL = "https://example.com/big"
        resume.bytesReceived = 1
        resume.entityTag = "\"e\""
        let blob = try resume.encoded()
        let limit = 64 << 20
        for (name, size) in [("under", limit), ("over", limit + 1)] {
            try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("tree"), withIntermediateDirectories: true)
            var bytes = blob
            bytes.append(Data(repeating: UInt8(ascii: " "), count: size - blob.count))
            try bytes.write(to: directory.url.appendingPathComponent("tree/\(name).plist"))
        }
        let result = try ToolRunner.run(["scan", "--csv", "tree"], in: directory.url)
        #expect(result.status == 0)
        #expect(try Self.parseCSV(result.stdout).dropFirst().map(\.first) == ["tree/under.plist"])
    }

    /// Folders deeper than the walk's limit are reported and skipped, not followed down.
    @Test func depthLimit() throws {
        let directory = try TemporaryDirectory()
        var resume = ResumeData(container: .binary)
        resume.downloadURL = "https://example.com/deep"
        let levels = 258
        let deepest = "tree" + String(repeating: "/d", count: levels)
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(deepest), withIntermediateDirectories: true)
        try resume.encoded().write(to: directory.url.appendingPathComponent(deepest + "/blob"))
        try resume.encoded().write(to: directory.url.appendingPathComponent("tree/d/d/blob"))
        let result = try ToolRunner.run(["scan", "--csv", "tree"], in: directory.url)
        #expect(result.status == 0)
        let limit = "tree" + String(repeating: "/d", count: 256)
        #expect(result.stderr == "\(limit): error: skipped its folders: more than 256 levels below tree\n")
        #expect(try Self.parseCSV(result.stdout).dropFirst().map(\.first) == ["tree/d/d/blob"])
    }

    /// A root inside another is scanned once, without an error.
    @Test func overlappingRoots() throws {
        let tree = try Tree()
        let result = try tree.run(["scan", "--csv", "tree", "tree/loose", "tree"])
        #expect(result.status == 0)
        #expect(result.stderr == Self.lockedError)
        // A header, five blobs and two orphan partial files.
        #expect(try Self.parseCSV(result.stdout).count == 8)
    }

    @Test func usage() throws {
        let both = try ToolRunner.run(["scan", "--json", "--csv", "."])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--json and --csv cannot be used together"))
        let none = try ToolRunner.run(["scan"])
        #expect(none.status == 64)
        let help = try ToolRunner.run(["scan", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Example:\n  resumetool scan "))
    }
}
