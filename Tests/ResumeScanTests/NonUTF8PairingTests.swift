import Foundation
import ResumeDataCodec
@testable import ResumeScan
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder scan where folder and file names are not UTF-8 (issue 34): files are made on disk
/// under their raw bytes with `mkdir(2)` and `open(2)`, and ``ScanJob`` pairs each blob with the
/// partial file that its own folder holds, looked up by path, never with a file whose name only
/// reads alike once the bytes are decoded.
@Suite struct NonUTF8PairingTests {
    static let uuid = "0A1B2C3D-0000-4000-8000-00000000000C"

    /// A folder under the temporary folder, filled by raw byte paths, removed with `rm -rf`
    /// (Foundation's removal is not given names that are not UTF-8).
    final class RawTree {
        let base: String

        init() throws {
            base = NSTemporaryDirectory() + "nonutf8-\(UUID().uuidString)"
            try makeFolder(Array(base.utf8))
        }

        /// `base/relative`, the folders on the way made as needed.
        func write(_ data: Data, _ relative: [UInt8]) throws {
            let path = Array(base.utf8) + [UInt8(ascii: "/")] + relative
            var folder: [UInt8] = []
            for component in relative.split(separator: UInt8(ascii: "/")).dropLast() {
                folder += [UInt8(ascii: "/")] + component
                try makeFolder(Array(base.utf8) + folder)
            }
            let descriptor = Self.withCPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? -1
            try #require(descriptor >= 0, "cannot create \(String(decoding: path, as: UTF8.self))")
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
        }

        func folder(_ relative: [UInt8]) throws {
            var folder: [UInt8] = []
            for component in relative.split(separator: UInt8(ascii: "/")) {
                folder += [UInt8(ascii: "/")] + component
                try makeFolder(Array(base.utf8) + folder)
            }
        }

        private func makeFolder(_ path: [UInt8]) throws {
            let made = Self.withCPath(path) { mkdir($0, 0o755) == 0 || errno == EEXIST }
            try #require(made == true, "cannot make \(String(decoding: path, as: UTF8.self))")
        }

        /// `body` given `path` as a C string: the bytes as they are, whatever they spell.
        static func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T? {
            (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in buffer.baseAddress.map(body) }
        }

        deinit {
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", base]
            try? remove.run()
            remove.waitUntilExit()
        }
    }

    static func blob(tempFileName: String? = nil, localPath: String? = nil) throws -> Data {
        var resume = ResumeData(container: .binary)
        resume.downloadURL = "https://example.com/file.bin"
        resume.bytesReceived = 100
        resume.tempFileName = tempFileName
        resume.localPath = localPath
        return try resume.encoded()
    }

    static func metadata(_ bundleID: String) throws -> Data {
        try PropertyListWriter().write(["MCMMetadataIdentifier": .string(bundleID)], as: .binary)
    }

    /// What each blob was paired with: its path, the partial file's path (nil when none), its
    /// bundle ID and whether it says its partial file is missing.
    struct Paired: Equatable, CustomStringConvertible {
        let blob: String
        let partial: String?
        let bundleID: String?
        let missing: [String]
        var description: String { "\(blob) -> \(partial ?? "nil") [\(bundleID ?? "nil")] \(missing)" }
    }

    static func scan(_ tree: RawTree) -> (paired: [Paired], orphans: [String], errors: [String]) {
        let inventory = ScanJob(roots: [tree.base + "/ev"]).run().inventory
        let paired = inventory.blobs.map { blob in
            Paired(blob: String(blob.path.dropFirst(tree.base.utf8.count + 1)),
                   partial: blob.partialFile.map { String($0.path.dropFirst(tree.base.utf8.count + 1)) },
                   bundleID: blob.bundleID,
                   missing: blob.findings.filter { $0.code == .tempFileMissing }.map { $0.message.replacingOccurrences(of: tree.base + "/", with: "") })
        }
        return (paired, inventory.orphanPartialFiles.map { String($0.path.dropFirst(tree.base.utf8.count + 1)) }, inventory.errors.map(\.message))
    }

    /// A container named by byte FF, another by byte FE above a UUID folder: the partial file
    /// named by `TempFileName` (not named like CFNetwork's, so looked up by path) and by
    /// `LocalPath`, and the container's bundle ID, are all found; the blob's own name, E9 in
    /// Latin-1, is scanned and shown escaped.
    @Test func pairsInsideFoldersWhoseNamesAreNotUTF8() throws {
        let tree = try RawTree()
        let ff: [UInt8] = Array("ev/".utf8) + [0xFF]
        try tree.folder(ff + Array("/Library".utf8))
        try tree.write(Self.blob(tempFileName: "download.part"), ff + Array("/Library/blob".utf8) + [0xE9])
        try tree.write(Data(repeating: 1, count: 200), ff + Array("/tmp/download.part".utf8))
        try tree.write(Self.metadata("com.example.ff"), ff + Array("/\(AppContainerLayout.metadataName)".utf8))

        let fe: [UInt8] = Array("ev/".utf8) + [0xFE] + Array("/Application/\(Self.uuid)".utf8)
        try tree.folder(fe + Array("/tmp".utf8))
        try tree.write(Self.blob(localPath: "/private/var/mobile/Containers/Data/Application/\(Self.uuid)/Documents/partial.bin"),
                       fe + Array("/Library/blob".utf8))
        try tree.write(Data(repeating: 2, count: 300), fe + Array("/Documents/partial.bin".utf8))

        let found = Self.scan(tree)
        #expect(found.paired == [
            Paired(blob: "ev/\\x{fe}/Application/\(Self.uuid)/Library/blob", partial: "ev/\\x{fe}/Application/\(Self.uuid)/Documents/partial.bin",
                   bundleID: nil, missing: []),
            Paired(blob: "ev/\\x{ff}/Library/blob\\x{e9}", partial: "ev/\\x{ff}/tmp/download.part", bundleID: "com.example.ff", missing: []),
        ])
        #expect(found.orphans == [])
        #expect(found.errors == [])
    }

    /// Two containers whose names read alike once decoded: `caf` then byte E9, and the UTF-8
    /// name `caf\x{e9}` that spells the escape. Only the second holds `tmp/other.part`; the blob
    /// in the first must not be paired with it, and the blob in the second must.
    @Test func foldersDifferingOnlyInTheirBytesAreKeptApart() throws {
        let tree = try RawTree()
        let latin: [UInt8] = Array("ev/caf".utf8) + [0xE9]
        let spelled: [UInt8] = Array("ev/caf\\x{e9}".utf8)
        try tree.folder(latin + Array("/tmp".utf8))
        try tree.write(Self.blob(tempFileName: "other.part"), latin + Array("/Library/blob".utf8))
        try tree.write(Self.blob(tempFileName: "other.part"), spelled + Array("/Library/blob".utf8))
        try tree.write(Data(repeating: 3, count: 100), spelled + Array("/tmp/other.part".utf8))

        let found = Self.scan(tree)
        #expect(found.paired == [
            Paired(blob: "ev/caf\\x{5c}x{e9}/Library/blob", partial: "ev/caf\\x{5c}x{e9}/tmp/other.part", bundleID: nil, missing: []),
            Paired(blob: "ev/caf\\x{e9}/Library/blob", partial: nil, bundleID: nil,
                   missing: ["the partial file ev/caf\\x{e9}/tmp/other.part does not exist"]),
        ])
        #expect(found.errors == [])
    }

    /// A blob whose `TempFileName` spells the escape, `CFNetworkDownload_\x{ff}.tmp`, beside a
    /// partial file whose name has byte FF there: different names, so no pairing; the file is an
    /// orphan, and the name scan looked for is the blob's own, escaped by the same rule.
    @Test func aBlobsNameThatSpellsTheEscapeIsNotAnotherFilesBytes() throws {
        let tree = try RawTree()
        try tree.folder(Array("ev/app/Library".utf8))
        try tree.write(Self.blob(tempFileName: "CFNetworkDownload_\\x{ff}.tmp"), Array("ev/app/Library/blob".utf8))
        try tree.write(Data(repeating: 4, count: 100), Array("ev/app/tmp/CFNetworkDownload_".utf8) + [0xFF] + Array(".tmp".utf8))

        let found = Self.scan(tree)
        #expect(found.paired == [
            Paired(blob: "ev/app/Library/blob", partial: nil, bundleID: nil,
                   missing: ["the partial file ev/app/tmp/CFNetworkDownload_\\x{5c}x{ff}.tmp does not exist"]),
        ])
        #expect(found.orphans == ["ev/app/tmp/CFNetworkDownload_\\x{ff}.tmp"])
    }

    /// nsurlsessiond's ledger in an extraction whose top folder is named by byte FF: the
    /// database and the `-wal` that holds its schema are opened in their walked folder by their
    /// names' bytes, so the ledger is read as it is from a UTF-8 folder, its path shown escaped.
    @Test func aLedgerInsideAFolderWhoseNameIsNotUTF8IsRead() throws {
        let fixture = try LedgerFixture(["--version", "3", "--layout", "wal-only"])
        defer { fixture.remove() }
        let direct = try TaskLedger.read(path: fixture.database)
        let tree = try RawTree()
        // The whole extraction, partial files too, under the folder named by byte FF.
        let top: [UInt8] = Array("ev/".utf8) + [0xFF]
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: fixture.root) as [String]?)
        for file in files.sorted() {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: fixture.root + "/" + file, isDirectory: &isFolder)
            if isFolder.boolValue { continue }
            try tree.write(Data(contentsOf: URL(fileURLWithPath: fixture.root + "/" + file)), top + Array("/\(file)".utf8))
        }
        #expect(files.contains(LedgerFixture.ledgerPath + "-wal"))

        let inventory = ScanJob(roots: [tree.base + "/ev"]).run().inventory
        #expect(inventory.errors.map(\.message) == [])
        try #require(inventory.ledgers.count == 1)
        let ledger = inventory.ledgers[0]
        #expect(ledger.path == tree.base + "/ev/\\x{ff}/" + LedgerFixture.ledgerPath)
        #expect(ledger.warnings == direct.warnings)
        #expect(ledger.tasks.count == 3)
        #expect(ledger.tasks.map(\.identifier) == direct.tasks.map(\.identifier))
        #expect(ledger.root == tree.base + "/ev/\\x{ff}")
        // Each partial file is found (or not) as beside a UTF-8 folder, at the escaped path.
        let escaped = tree.base + "/ev/\\x{ff}/"
        #expect(ledger.tasks.map { $0.partialFile?.path } == direct.tasks.map { $0.partialFile?.path.map { escaped + $0.dropFirst(fixture.root.utf8.count + 1) } })
        #expect(ledger.tasks.map { $0.partialFile?.size } == direct.tasks.map { $0.partialFile?.size })
        #expect(ledger.tasks.map { $0.partialFile?.problem } == direct.tasks.map { $0.partialFile?.problem })
        #expect(direct.tasks.compactMap { $0.partialFile?.size }.count == 1)

        // The same folder given itself as the root, by its bytes: the same ledger.
        let named = ScanJob(rootPaths: [Array(tree.base.utf8) + [UInt8(ascii: "/")] + top]).run()
        #expect(named.allRootsRead)
        #expect(named.inventory.errors.map(\.message) == [])
        #expect(named.inventory.ledgers.map(\.path) == [ledger.path])
        #expect(named.inventory.ledgers.map(\.root) == [ledger.root])
        #expect(named.inventory.ledgers.first?.tasks.map { $0.partialFile?.path } == ledger.tasks.map { $0.partialFile?.path })
        #expect(named.inventory.ledgers.first?.tasks.map { $0.partialFile?.size } == ledger.tasks.map { $0.partialFile?.size })
    }

    /// A root whose own name is not UTF-8, given by its bytes: its blob pairs with the partial
    /// file beside it, and every path, the root's too, is spelled with the escape.
    @Test func aRootWhoseNameIsNotUTF8IsScannedByItsBytes() throws {
        let tree = try RawTree()
        let root: [UInt8] = Array("ev".utf8) + [0xE9]
        try tree.write(Self.blob(tempFileName: "CFNetworkDownload_Occ2S2.tmp"), root + Array("/Library/dl.resumedata".utf8))
        try tree.write(Data(count: 100), root + Array("/tmp/CFNetworkDownload_Occ2S2.tmp".utf8))
        let (inventory, allRootsRead) = ScanJob(rootPaths: [Array(tree.base.utf8) + [UInt8(ascii: "/")] + root]).run()
        #expect(allRootsRead)
        #expect(inventory.errors.map(\.message) == [])
        let spelled = tree.base + "/ev\\x{e9}"
        #expect(inventory.blobs.map(\.path) == [spelled + "/Library/dl.resumedata"])
        #expect(inventory.blobs.map(\.file.source.root) == [spelled])
        #expect(inventory.blobs.map { $0.partialFile?.path } == [spelled + "/tmp/CFNetworkDownload_Occ2S2.tmp"])
        #expect(inventory.blobs.map { $0.partialFile?.size } == [100])
        #expect(inventory.orphanPartialFiles.isEmpty)
        // The same text given as a UTF-8 root names no folder.
        #expect(ScanJob(roots: [spelled]).run().allRootsRead == false)
    }
}
