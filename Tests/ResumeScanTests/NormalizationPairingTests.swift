import Foundation
import ResumeDataCodec
@testable import ResumeScan
import Testing

/// Names that differ only in Unicode normalization (`café` as U+00E9, and as `e` + U+0301) are
/// two names to Linux file systems, to archives and to a backup's rows, though Swift's `String`
/// calls them equal; and a name may begin with a combining mark, which `String` joins to the `/`
/// before it. Scan keeps paths apart, and takes them apart, by their bytes. Expectations are
/// compared as bytes too: `==` on the strings would itself call the two spellings one.
@Suite struct NormalizationPairingTests {
    static let composed = Array("caf\u{e9}".utf8)
    static let decomposed = Array("cafe\u{301}".utf8)
    static let partialName = "CFNetworkDownload_AbC123.tmp"

    static func bytes(_ values: [some CustomStringConvertible]) -> [[UInt8]] { values.map { Array($0.description.utf8) } }

    /// Two containers, `café` composed and decomposed. Only the decomposed one holds the partial
    /// file the composed one's blob names: the blob's file is missing (a file of that name is
    /// elsewhere), and the partial file is an orphan, not taken for the blob's.
    @Test func foldersDifferingOnlyInNormalizationAreKeptApart() throws {
        let tree = try NonUTF8PairingTests.RawTree()
        let ev = Array("ev/".utf8)
        try tree.write(NonUTF8PairingTests.blob(tempFileName: Self.partialName), ev + Self.composed + Array("/Library/blob".utf8))
        try tree.folder(ev + Self.composed + Array("/tmp".utf8))
        try tree.write(Data(repeating: 5, count: 100), ev + Self.decomposed + Array("/tmp/\(Self.partialName)".utf8))
        try tree.folder(ev + Self.decomposed + Array("/Library".utf8))

        let found = NonUTF8PairingTests.scan(tree)
        #expect(Self.bytes(found.paired) == Self.bytes([
            NonUTF8PairingTests.Paired(blob: "ev/caf\u{e9}/Library/blob", partial: nil, bundleID: nil,
                                       missing: ["the partial file ev/caf\u{e9}/tmp/\(Self.partialName) does not exist; a file of that name is at ev/cafe\u{301}/tmp/\(Self.partialName)"]),
        ]))
        #expect(Self.bytes(found.orphans) == Self.bytes(["ev/cafe\u{301}/tmp/\(Self.partialName)"]))
        #expect(found.errors == [])
    }

    /// A container whose name begins with a combining mark (U+0301): its blob, its partial file
    /// and its metadata plist are found below the root as in any other folder.
    @Test func aNameThatBeginsWithACombiningMarkIsAName() throws {
        let tree = try NonUTF8PairingTests.RawTree()
        let container = Array("ev/\u{301}app".utf8)
        try tree.write(NonUTF8PairingTests.blob(tempFileName: "download.part"), container + Array("/Library/blob".utf8))
        try tree.write(Data(repeating: 6, count: 150), container + Array("/tmp/download.part".utf8))
        try tree.write(NonUTF8PairingTests.metadata("com.example.mark"), container + Array("/\(AppContainerLayout.metadataName)".utf8))

        let found = NonUTF8PairingTests.scan(tree)
        #expect(Self.bytes(found.paired) == Self.bytes([
            NonUTF8PairingTests.Paired(blob: "ev/\u{301}app/Library/blob", partial: "ev/\u{301}app/tmp/download.part", bundleID: "com.example.mark", missing: []),
        ]))
        #expect(found.orphans.isEmpty)
        #expect(found.errors == [])
    }

    /// Both spellings of `café/tmp/CFNetworkDownload_….tmp` in one archive. A GNU tar (Python's
    /// `tarfile`) holds names as bytes: two members of two names, both reported. A zip
    /// (Python's `zipfile`) flags its names as UTF-8, and libarchive converts such names to NFC
    /// (as bsdtar extracts them, and as Apple's file systems compare names): one name, the
    /// later member reported, and a warning that names the earlier. Names a zip flags as UTF-8
    /// are read whatever the process's locale (in the C locale they came out empty).
    @Test(arguments: [false, true])
    func anArchivesMembersDifferingOnlyInNormalization(zip: Bool) throws {
        let folder = NSTemporaryDirectory() + "normalization-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let archive = folder + (zip ? "/evidence.zip" : "/evidence.tar")
        let script = zip ? """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr("caf\\u00e9/tmp/\(Self.partialName)", b"a" * 100)
                z.writestr("cafe\\u0301/tmp/\(Self.partialName)", b"b" * 200)
            """ : """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w", format=tarfile.GNU_FORMAT) as t:
                for name, data in [("caf\\u00e9", b"a" * 100), ("cafe\\u0301", b"b" * 200)]:
                    info = tarfile.TarInfo(name + "/tmp/\(Self.partialName)")
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, archive]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)

        let inventory = ScanJob(roots: [archive]).run().inventory
        let composed = "caf\u{e9}/tmp/\(Self.partialName)"
        #expect(inventory.errors.map(\.message) == [])
        if zip {
            #expect(Self.bytes(inventory.orphanPartialFiles.map(\.path)) == Self.bytes([composed]))
            #expect(inventory.orphanPartialFiles.map(\.status.size) == [200])
            #expect(Self.bytes(inventory.archives.first?.warnings ?? []) == Self.bytes([
                "member 1, \(composed), has the name of member 0 before it: unpacking leaves the later one, which is what is reported",
            ]))
        } else {
            // In byte order: `e` (65) before the composed letter's first byte (C3).
            #expect(Self.bytes(inventory.orphanPartialFiles.map(\.path)) == Self.bytes(["cafe\u{301}/tmp/\(Self.partialName)", composed]))
            #expect(inventory.orphanPartialFiles.map(\.status.size) == [200, 100])
            #expect(inventory.archives.first?.warnings == [])
        }
    }
}
