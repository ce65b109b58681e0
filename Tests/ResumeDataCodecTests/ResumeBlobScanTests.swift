import Foundation
import ResumeSystemCalls
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// The I/O-free decisions under `resumetool scan`: what first bytes say, which blobs a file
/// holds and where, and where an app keeps its partial files.
@Suite struct ResumeBlobScanTests {
    static func blob(_ container: ResumeDataContainer = .keyedArchive) throws -> Data {
        try ResumeDataTestSupport.modern().encoded(as: container)
    }

    static func obscured(_ bytes: Data) -> Data {
        Data(zip(bytes.prefix(8), Array("TedLasso".utf8)).map { $0 ^ $1 } + bytes.dropFirst(8))
    }

    // MARK: First bytes

    @Test func firstBytes() throws {
        #expect(ScanContentKind(prefix: Array("bplist00".utf8) + [0, 1, 2]) == .binaryPropertyList)
        #expect(ScanContentKind(prefix: Self.obscured(try Self.blob())) == .networkFramework)
        #expect(ScanContentKind(prefix: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\">\n<plist version=\"1.0\">".utf8)) == .xmlPropertyList)
        #expect(ScanContentKind(prefix: [0xEF, 0xBB, 0xBF] + Array(" \n\t<plist version=\"1.0\"><dict/></plist>".utf8)) == .xmlPropertyList)
        #expect(ScanContentKind(prefix: Array("<!DOCTYPE plist>".utf8)) == .xmlPropertyList)
        #expect(ScanContentKind(prefix: Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == .notAPropertyList)
        #expect(ScanContentKind(prefix: Array("<html><body>plist</body></html>".utf8)) == .notAPropertyList)
        #expect(ScanContentKind(prefix: [UInt8]()) == .notAPropertyList)
        #expect(ScanContentKind(prefix: Array("bplist0".utf8)) == .notAPropertyList)
        #expect(ScanContentKind(prefix: [UInt8](repeating: 0, count: 4096)) == .notAPropertyList)
        // `<plist` past the prefix: rejected without reading further.
        let late = Array("<?xml version=\"1.0\"?>".utf8) + [UInt8](repeating: 0x20, count: 2000) + Array("<plist>".utf8)
        #expect(ScanContentKind(prefix: late.prefix(ScanContentKind.prefixLength)) == .notAPropertyList)
        #expect(!ScanContentKind.notAPropertyList.isCandidate)
        #expect(ScanContentKind.networkFramework.isCandidate)
    }

    // MARK: Blobs in bytes

    /// The classic containers; the Network-framework ones are read from the samples below.
    @Test(arguments: [ResumeDataContainer.xml, .binary, .keyedArchive, .keyedArchiveXML])
    func wholeFileIsTheBlob(_ container: ResumeDataContainer) throws {
        let bytes = try Self.blob(container)
        let found = ResumeBlobSearch().blobs(in: bytes)
        #expect(found.count == 1)
        #expect(found.first?.keyPath == nil)
        #expect(found.first?.containerName == container.rawValue)
        #expect(found.first?.size == bytes.count)
        #expect(found.first?.resumeData == (try ResumeData(data: bytes)))
    }

    @Test func blobsInsideUserDefaults() throws {
        let xml = try Self.blob(.xml)
        let archive = try Self.blob(.keyedArchive)
        let defaults: PropertyListValue = [
            "lastLaunch": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "pending": [
                ["name": "first", "resumeData": .data(Data("not a plist".utf8))],
                ["name": "second", "resumeData": .data(archive)],
            ],
            "other": ["deeper": [.data(xml)]],
        ]
        for format in [PropertyListFormat.binary, .xml] {
            let bytes = try PropertyListWriter().write(defaults, as: format)
            let found = ResumeBlobSearch().blobs(in: bytes)
            #expect(found.map(\.keyPath) == ["pending[1].resumeData", "other.deeper[0]"])
            #expect(found.map(\.containerName) == ["keyed-archive", "xml"])
            #expect(found.map(\.size) == [archive.count, xml.count])
            #expect(found.first?.resumeData?.tempFileName == "CFNetworkDownload_A1.tmp")
        }
    }

    @Test func blobsInsideAKeyedArchiveCache() throws {
        let blob = try Self.blob(.binary)
        let task = ArchivedValue.object(ArchivedObject(
            className: "DMDownloadTask", classChain: ["DMDownloadTask", "NSObject"],
            fields: [
                .init(key: "identifier", value: .reference(.string("task-7"))),
                .init(key: "resumeData", value: .reference(.data(blob))),
            ]))
        let root = ArchivedValue.dictionary([
            .init(key: "version", value: .integer(3)),
            .init(key: "tasks", value: .array([.string("x"), task])),
        ])
        let bytes = try KeyedArchive(encoding: root).data()
        let found = ResumeBlobSearch().blobs(in: bytes)
        #expect(found.map(\.keyPath) == ["tasks[1].resumeData"])
        #expect(found.first?.containerName == "binary")
        #expect(found.first?.resumeData?.downloadURL == "https://example.com/file.bin")
    }

    @Test func blobInAnArchiveTheDecoderRefuses() throws {
        let blob = try Self.blob(.binary)
        // The root object's class reference points at the root itself: no tree to decode.
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100000,
            "$top": ["root": .uid(1)],
            "$objects": ["$null", ["$class": .uid(1), "payload": .uid(2)], .data(blob)],
        ]
        let bytes = try PropertyListWriter().write(archive, as: .binary)
        #expect(throws: (any Error).self) { try KeyedArchive(data: bytes).decodeRoot() }
        #expect(ResumeBlobSearch().blobs(in: bytes).map(\.keyPath) == ["$objects[2]"])
    }

    @Test func blobInsideDataInsideAnArchive() throws {
        let blob = try Self.blob(.keyedArchive)
        let inner = try PropertyListWriter().write(["resume": .data(blob)], as: .binary)
        let outer = try PropertyListWriter().write(["cache": .data(inner)], as: .xml)
        #expect(ResumeBlobSearch().blobs(in: outer).map(\.keyPath) == ["cache.resume"])
        var shallow = ResumeBlobSearch()
        shallow.maximumNesting = 1
        #expect(ResumeBlobSearch().blobs(in: inner).map(\.keyPath) == ["resume"])
        #expect(shallow.blobs(in: outer).isEmpty)
    }

    /// Bytes that start like the Network-framework format but do not decode (here a classic
    /// archive XOR-ed) are still reported, bare, nested, and in WebKit's wrapper with its path.
    @Test func undecodableNetworkFrameworkBlobs() throws {
        let obscured = Self.obscured(try Self.blob())
        let whole = ResumeBlobSearch().blobs(in: obscured)
        #expect(whole.count == 1)
        #expect(whole.first?.keyPath == nil)
        #expect(whole.first?.containerName == "obscured-format")
        #expect(whole.first?.resumeData == nil)
        #expect(whole.first?.size == obscured.count)
        let path = "/Users/me/Downloads/big.iso.download/big.iso"
        let wrapped = try PropertyListWriter().write(
            KeyedArchive.encodeDictionary(["data": .data(obscured), ResumeDataKey.localPath: .string(path)]), as: .binary)
        let inWrapper = ResumeBlobSearch().blobs(in: wrapped)
        #expect(inWrapper.map(\.containerName) == ["obscured-format"])
        #expect(inWrapper.map(\.localPath) == [path])
        let nested = try PropertyListWriter().write(["downloads": [.data(obscured)]], as: .binary)
        #expect(ResumeBlobSearch().blobs(in: nested).map(\.keyPath) == ["downloads[0]"])
    }

    /// The real-layout Network-framework samples decode as `inspect` decodes them, bare and nested.
    @Test(arguments: [("nwurlsession-ios17.resumedata", "nwurlsession"), ("nwurlsession-ios26.resumedata", "nwurlsession"),
                      ("nwurlsession-webkit.resumedata", "nwurlsession-webkit")])
    func networkFrameworkSamples(_ name: String, _ container: String) throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let bytes = try Data(contentsOf: samples.appendingPathComponent(name))
        let found = ResumeBlobSearch().blobs(in: bytes)
        #expect(found.map(\.containerName) == [container])
        #expect(found.first?.resumeData == (try ResumeData(data: bytes)))
        let nested = try PropertyListWriter().write(["tasks": [["state": 2, "resumeData": .data(bytes)]]], as: .binary)
        let inside = ResumeBlobSearch().blobs(in: nested)
        #expect(inside.map(\.keyPath) == ["tasks[0].resumeData"])
        #expect(inside.map(\.containerName) == [container])
    }

    @Test func nothingInOtherBytes() throws {
        let blob = try Self.blob()
        #expect(ResumeBlobSearch().blobs(in: Data("hello".utf8)).isEmpty)
        #expect(ResumeBlobSearch().blobs(in: blob.prefix(blob.count - 40)).isEmpty)
        #expect(ResumeBlobSearch().blobs(in: try PropertyListWriter().write(["a": 1, "b": ["c"]], as: .binary)).isEmpty)
        // A keyed archive of something else, and a request archive alone, are not blobs.
        let request = try URLRequestArchive(url: #require(URL(string: "https://example.com/x"))).archiveData()
        #expect(ResumeBlobSearch().blobs(in: request).isEmpty)
    }

    /// Every prefix of a plist holding blobs, and every single-byte corruption of its first
    /// kilobyte: no trap, and never a blob that is not there.
    @Test func damagedInputs() throws {
        let blob = try Self.blob(.keyedArchive)
        let bytes = try PropertyListWriter().write(["pending": [["resumeData": .data(blob)]]], as: .binary)
        for length in 0..<bytes.count {
            let found = ResumeBlobSearch().blobs(in: bytes.prefix(length))
            #expect(found.allSatisfy { $0.keyPath == "pending[0].resumeData" })
        }
        for offset in 0..<min(bytes.count, 1024) {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            #expect(ResumeBlobSearch().blobs(in: damaged).count <= 1)
        }
    }

    @Test func foundBlobsAreNotSearchedInside() throws {
        // A blob's own data values (its request archives, an app's extra entry) are part of it,
        // not findings: here one of them is a whole resume blob, which a search would find on its
        // own, and the search that found the outer blob does not report it.
        let inner = try Self.blob(.binary)
        #expect(ResumeBlobSearch().blobs(in: inner).count == 1)
        var outer = try ResumeDataTestSupport.modern()
        outer.entries["AppSavedResumeData"] = .data(inner)
        let found = ResumeBlobSearch().blobs(in: try outer.encoded(as: .xml))
        #expect(found.count == 1)
        #expect(found.first?.keyPath == nil)
        // The same blob one level down, as a value of a plain dictionary, is found there.
        let wrapped = try PropertyListWriter().write(["saved": .data(inner)], as: .binary)
        #expect(ResumeBlobSearch().blobs(in: wrapped).map(\.keyPath) == ["saved"])
    }

    @Test func limits() throws {
        let blob = try Self.blob(.binary)
        let many = try PropertyListWriter().write(.array(Array(repeating: .data(blob), count: 20)), as: .binary)
        var search = ResumeBlobSearch()
        search.maximumBlobs = 5
        #expect(search.blobs(in: many).map(\.keyPath) == ["[0]", "[1]", "[2]", "[3]", "[4]"])
        search = ResumeBlobSearch()
        search.maximumParsedValues = 3
        #expect(search.blobs(in: many).count == 3)
        // Nested deeper than the limit: each level is a plist holding the next as data.
        var nested = blob
        for _ in 0..<6 { nested = try PropertyListWriter().write(["d": .data(nested)], as: .binary) }
        #expect(ResumeBlobSearch().blobs(in: nested).isEmpty)
        search = ResumeBlobSearch()
        search.maximumNesting = 6
        #expect(search.blobs(in: nested).map(\.keyPath) == ["d.d.d.d.d.d"])
    }

    /// The deepest input the limits let through, on a thread with the small stack Swift
    /// concurrency gives tasks on Linux: every nesting level as deep as the reader accepts.
    @Test func deepestNestingDoesNotExhaustTheStack() throws {
        let search = ResumeBlobSearch()
        func buried(_ value: PropertyListValue, depth: Int) -> PropertyListValue {
            (0..<depth).reduce(value) { inner, _ in .array([inner]) }
        }
        var bytes = try Self.blob(.binary)
        for _ in 0..<search.maximumNesting {
            bytes = try PropertyListWriter().write(buried(.data(bytes), depth: search.readOptions.maximumDepth - 1), as: .binary)
        }
        let found = search.blobs(in: bytes)
        #expect(found.count == 1)
        #expect(found.first?.keyPath?.hasPrefix("[0][0]") == true)
        // One level deeper than the reader accepts: not parsed, no blob, no crash.
        let tooDeep = try PropertyListWriter().write(buried(.data(try Self.blob(.binary)), depth: search.readOptions.maximumDepth + 1), as: .binary)
        #expect(search.blobs(in: tooDeep).isEmpty)
    }

    // MARK: Containers and partial files

    static let uuid = "8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"

    @Test func containerRoot() {
        let containers: Set<BytePath> = ["/x/Application/A", "/x/Application/A/Library/Caches/inner"]
        #expect(AppContainerLayout.containerRoot(of: "/x/Application/A/Library/Preferences/p.plist", containers: containers) == "/x/Application/A")
        #expect(AppContainerLayout.containerRoot(of: "/x/Application/A/Library/Caches/inner/f", containers: containers) == "/x/Application/A/Library/Caches/inner")
        #expect(AppContainerLayout.containerRoot(of: "/x/Application/A/f", containers: containers) == "/x/Application/A")
        #expect(AppContainerLayout.containerRoot(of: "/x/Application/A", containers: containers) == nil)
        #expect(AppContainerLayout.containerRoot(of: "/x/other/f", containers: containers) == nil)
        #expect(AppContainerLayout.containerRoot(of: "rel/A/f", containers: ["rel/A"]) == "rel/A")
        #expect(AppContainerLayout.containerRoot(of: "/f", containers: ["/"]) == "/")
    }

    @Test func tempFilePath() {
        #expect(AppContainerLayout.tempFilePath(name: "CFNetworkDownload_A.tmp", containerRoot: "/c") == "/c/tmp/CFNetworkDownload_A.tmp")
        #expect(AppContainerLayout.tempFilePath(name: "../../etc/passwd", containerRoot: "/c") == nil)
        #expect(AppContainerLayout.tempFilePath(name: "..", containerRoot: "/c") == nil)
        #expect(AppContainerLayout.tempFilePath(name: "x.tmp", containerRoot: nil) == nil)
    }

    @Test func localPathCandidates() {
        let device = "/private/var/mobile/Containers/Data/Application/\(Self.uuid)/tmp/CFNetworkDownload_A.tmp"
        let scanned = "/cases/7/Application/\(Self.uuid)"
        #expect(AppContainerLayout.localPathCandidates(device, roots: [("/cases/7", "/cases/7")], containerRoot: "/cases/7/Application/OTHER",
                                                       uuidFolders: [Self.uuid: [scanned]])
                == [scanned + "/tmp/CFNetworkDownload_A.tmp", "/cases/7/Application/OTHER/tmp/CFNetworkDownload_A.tmp"])
        // Lower-case UUIDs in the path match folders indexed by their upper-case name.
        #expect(AppContainerLayout.localPathCandidates(device.lowercased(), roots: [], containerRoot: nil, uuidFolders: [Self.uuid: [scanned]])
                == [scanned + "/tmp/cfnetworkdownload_a.tmp"])
        // A path already inside a scanned root is the first candidate, spelled from the root as given.
        #expect(AppContainerLayout.localPathCandidates("/Users/me/Downloads/a.download/a", roots: [("/Users/me", "/Users/me")],
                                                       containerRoot: "/Users/me", uuidFolders: [:]) == ["/Users/me/Downloads/a.download/a"])
        #expect(AppContainerLayout.localPathCandidates("/Users/me/Downloads/a.download/a", roots: [("/Users/me", ".")],
                                                       containerRoot: nil, uuidFolders: [:]) == ["./Downloads/a.download/a"])
        #expect(AppContainerLayout.localPathCandidates("/Users/me/a", roots: [("/", "/")], containerRoot: nil, uuidFolders: [:]) == ["/Users/me/a"])
        #expect(AppContainerLayout.localPathCandidates("/Users/mex/a", roots: [("/Users/me", "/Users/me")], containerRoot: nil, uuidFolders: [:]).isEmpty)
        #expect(AppContainerLayout.localPathCandidates("/var/\(Self.uuid)/../../etc/passwd", roots: [("/", "/")], containerRoot: "/c", uuidFolders: [:]).isEmpty)
        #expect(AppContainerLayout.localPathCandidates("tmp/relative", roots: [("/", "/")], containerRoot: "/c", uuidFolders: [:]).isEmpty)
        #expect(AppContainerLayout.localPathCandidates("/var/\(Self.uuid)", roots: [], containerRoot: "/c", uuidFolders: [:]).isEmpty)
        // An extraction's copies of /private/var come first, for /var and /.nofollow spellings too.
        let roots = ["x/filesystem1/private/var", "x/private/var"]
        let inExtraction = ["x/filesystem1/private/var/mobile/tmp/a.tmp", "x/private/var/mobile/tmp/a.tmp"]
        #expect(AppContainerLayout.localPathCandidates("/private/var/mobile/tmp/a.tmp", roots: [], deviceRoots: roots, containerRoot: nil,
                                                       uuidFolders: [:]) == inExtraction)
        #expect(AppContainerLayout.localPathCandidates("/.nofollow/var/mobile/tmp/a.tmp", roots: [], deviceRoots: roots, containerRoot: nil,
                                                       uuidFolders: [:]) == inExtraction)
        #expect(AppContainerLayout.localPathCandidates("/private/var/mobile/../../../etc/passwd", roots: [], deviceRoots: roots,
                                                       containerRoot: "/c", uuidFolders: [:]).isEmpty)
        #expect(AppContainerLayout.localPathCandidates("/Users/me/a", roots: [], deviceRoots: roots, containerRoot: nil, uuidFolders: [:]).isEmpty)
        // Two spellings of a folder are two candidates (String's == would keep one).
        let composed = "/cases/caf\u{e9}", decomposed = "/cases/cafe\u{301}"
        let both = AppContainerLayout.localPathCandidates(
            composed + "/Application/\(Self.uuid)/tmp/a.tmp", roots: [(composed, composed)],
            containerRoot: decomposed + "/Application/\(Self.uuid)", uuidFolders: [:])
        #expect(both.map { Array($0.utf8) } == [composed, decomposed].map { Array(($0 + "/Application/\(Self.uuid)/tmp/a.tmp").utf8) })
        // A combining mark after the first slash does not make the path relative.
        #expect(AppContainerLayout.localPathCandidates("/\u{301}x/a", roots: [("/", "/")], containerRoot: nil, uuidFolders: [:])
                    .map { Array($0.utf8) } == [Array("/\u{301}x/a".utf8)])
    }

    @Test func partialFileNames() {
        #expect(AppContainerLayout.isPartialFile(name: "CFNetworkDownload_Occ2S2.tmp", parentName: "tmp"))
        #expect(AppContainerLayout.isPartialFile(name: "CFNetworkDownload_Occ2S2.tmp", parentName: "anywhere"))
        #expect(!AppContainerLayout.isPartialFile(name: "CFNetworkDownload_.tmp", parentName: "tmp"))
        #expect(!AppContainerLayout.isPartialFile(name: "CFNetworkDownload_Occ2S2.tmp.bak", parentName: "tmp"))
        #expect(AppContainerLayout.isPartialFile(name: "big.iso", parentName: "big.iso.download"))
        #expect(!AppContainerLayout.isPartialFile(name: "Info.plist", parentName: "big.iso.download"))
        #expect(!AppContainerLayout.isPartialFile(name: ".DS_Store", parentName: "big.iso.download"))
        #expect(!AppContainerLayout.isPartialFile(name: "big.iso", parentName: ".download"))
        #expect(!AppContainerLayout.isPartialFile(name: "notes.txt", parentName: "tmp"))
    }

    @Test func containerUUIDs() {
        #expect(AppContainerLayout.isContainerUUID(Self.uuid))
        #expect(AppContainerLayout.isContainerUUID(Self.uuid.lowercased()))
        #expect(!AppContainerLayout.isContainerUUID(Self.uuid.dropLast()))
        #expect(!AppContainerLayout.isContainerUUID(Self.uuid.replacingOccurrences(of: "-", with: "_")))
        #expect(!AppContainerLayout.isContainerUUID("8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6G"))
    }

    @Test func partialFileFindings() {
        let key = ResumeDataKey.tempFileName
        #expect(ResumeDataValidator.partialFileFindings(path: "/c/tmp/x", size: 10, bytesReceived: 10, key: key).isEmpty)
        #expect(ResumeDataValidator.partialFileFindings(path: "/c/tmp/x", size: nil, bytesReceived: 10, key: key)
                == [.init(.error, .tempFileMissing, "the partial file /c/tmp/x does not exist", key: key)])
        #expect(ResumeDataValidator.partialFileFindings(path: "/c/tmp/x", size: 4, bytesReceived: 10, key: key).map(\.severity) == [.error])
        #expect(ResumeDataValidator.partialFileFindings(path: "/c/tmp/x", size: 12, bytesReceived: 10, key: key).map(\.severity) == [.warning])
        #expect(ResumeDataValidator.partialFileFindings(path: "/c/tmp/x", size: 12, bytesReceived: nil, key: key).isEmpty)
    }
}
