import Foundation
import Testing

/// `resumetool scan` on extractions as real tools write them (issue 34): `Backups/make_real_archives.sh`
/// makes each with Info-ZIP's zip, GNU tar, gzip or Python's zipfile from one tree (Zip64, data
/// descriptors, no directory entries, GNU long names and sparse members, pax headers, a gzip
/// stream of many members, two tars one after the other, a member appended again, names that are
/// not UTF-8). Each archive must give the findings the tree gives scanned as a folder, with its
/// exact format, member count and warnings.
@Suite struct RealArchiveTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/make_real_archives.sh")
    static let app = "filesystem1/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"
    static let sparse = "\(app)/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_sp4rse.tmp"

    /// The archives made in a fresh folder.
    final class Made {
        let directory: TemporaryDirectory
        init() throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["bash", RealArchiveTests.generator.path, directory.url.path])
            try #require(made.status == 0, "make_real_archives.sh: \(String(decoding: made.stderr, as: UTF8.self))")
        }

        func json(_ name: String) throws -> (result: ToolRunner.Result, top: [String: Any]) {
            let result = try ToolRunner.run(["scan", "--json", name], in: directory.url)
            let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return (result, top)
        }

        func sha256(_ relative: String) throws -> String {
            let sum = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", directory.path(relative)])
            return String(String(decoding: sum.stdout, as: UTF8.self).prefix(64))
        }
    }

    /// Each archive, with libarchive's name for its format (that of the first member: a folder,
    /// stored, in most) and its member count.
    static let archives: [(name: String, format: String, members: Int)] = [
        ("zip64.zip", "ZIP 4.5 (uncompressed)", 37),
        ("streamed.zip", "ZIP 1.0 (uncompressed)", 37),
        ("streamed-stored.zip", "ZIP 2.0 (uncompressed)", 12),
        ("no-folders.zip", "ZIP 2.0 (deflation)", 12),
        ("gnu.tar", "GNU tar format", 37),
        ("pax.tar", "POSIX ustar format", 37),
        ("split.tar.gz", "GNU tar format", 37),
        ("concatenated.tar.gz", "GNU tar format", 33),
        ("dot.tar.gz", "GNU tar format", 38),
    ]

    @Test func everyToolsArchiveGivesTheTreesFindings() throws {
        let made = try Made()
        let (treeResult, tree) = try made.json("tree")
        #expect(treeResult.status == 0)
        let treeBlobs = try #require(tree["blobs"] as? [[String: Any]])
        let treeOrphans = try #require(tree["orphanPartialFiles"] as? [[String: Any]])
        #expect(treeBlobs.count == 4)
        // The sparse partial file comes out whole: its hole read as the zeros it stands for.
        #expect(treeOrphans.map { $0["path"] as? String } == [
            "tree/\(Self.app)/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_a1B2c3.tmp", "tree/\(Self.sparse)",
        ])
        #expect(treeOrphans.map { $0["size"] as? Int } == [5000, 1_049_056])
        let sparseSHA256 = try made.sha256("tree/\(Self.sparse)")
        #expect(treeOrphans.last?["sha256"] as? String == sparseSHA256)
        for archive in Self.archives {
            let (result, top) = try made.json(archive.name)
            #expect(result.status == 0, "\(archive.name)")
            #expect(result.stderr == "", "\(archive.name)")
            let summary = try #require((top["archives"] as? [[String: Any]])?.first)
            #expect(summary["format"] as? String == archive.format, "\(archive.name)")
            #expect(summary["members"] as? Int == archive.members, "\(archive.name)")
            #expect(summary["files"] as? Int == 12, "\(archive.name)")
            #expect(summary["complete"] as? Bool == true, "\(archive.name)")
            #expect((summary["warnings"] as? [String]) == [], "\(archive.name)")
            #expect((top["errors"] as? [Any])?.isEmpty == true, "\(archive.name)")
            let blobs = try #require(top["blobs"] as? [[String: Any]])
            let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
            #expect(blobs.map { ArchiveScanTests.comparable($0, prefix: "") } == treeBlobs.map { ArchiveScanTests.comparable($0, prefix: "tree/") },
                    "\(archive.name)")
            #expect(orphans.map { ArchiveScanTests.comparable($0, prefix: "") } == treeOrphans.map { ArchiveScanTests.comparable($0, prefix: "tree/") },
                    "\(archive.name)")
            #expect(blobs.map { $0["modified"] as? String } == Array(repeating: "2026-01-02T03:04:06Z", count: 4), "\(archive.name)")
            #expect(orphans.last?["sha256"] as? String == sparseSHA256, "\(archive.name)")
        }
    }

    /// Two folders whose names differ in one byte that is not UTF-8, in a tar, a zip, and on
    /// disk scanned as a folder: each keeps its own name (escaped, never a replacement character
    /// that would make them one; a folder's files opened by their bytes, never skipped) and each
    /// blob is paired with its own folder's partial file.
    @Test(arguments: ["non-utf8.tar", "non-utf8.zip", "non-utf8"])
    func namesThatAreNotUTF8AreEscapedAndPairedByBytes(_ name: String) throws {
        let made = try Made()
        let (result, top) = try made.json(name)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect((top["errors"] as? [Any])?.isEmpty == true)
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        // A folder's paths are spelled from the DIR given; an archive's from its members.
        let root = name.contains(".") ? "" : name + "/"
        let folders = ["\(root)filesystem1/private/var/mobile/Junk/caf\\x{fe}", "\(root)filesystem1/private/var/mobile/Junk/caf\\x{ff}"]
        #expect(blobs.map { $0["path"] as? String } == folders.map { $0 + "/Library/Caches/blob.resumedata" })
        #expect(blobs.map { $0["appContainer"] as? String } == folders)
        #expect(blobs.map { ($0["partialFile"] as? [String: Any])?["path"] as? String } == folders.map { $0 + "/tmp/CFNetworkDownload_Occ2S2.tmp" })
        #expect(blobs.map { ($0["partialFile"] as? [String: Any])?["size"] as? Int } == [2540, 2550])
        let text = try ToolRunner.run(["scan", name], in: made.directory.url)
        #expect(text.status == 0)
        #expect(text.stdout.contains("\n\(root)filesystem1/private/var/mobile/Junk/caf\\x{ff}:\n  Library/Caches/blob.resumedata\n"))
        #expect(text.stdout.contains("    partial file:     tmp/CFNetworkDownload_Occ2S2.tmp, 2,550 bytes (2.5 KiB), 1,546 fewer than received\n"))
    }

    /// `tar -r` appended the partial file grown and the iOS 8 blob overwritten: unpacking leaves
    /// the later members, so the later ones are reported, and the report says each was there twice.
    @Test func aMemberAppendedAgainWinsAndIsTold() throws {
        let made = try Made()
        let (result, top) = try made.json("duplicate.tar")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let summary = try #require((top["archives"] as? [[String: Any]])?.first)
        let warnings = [
            "member 37, \(Self.app)/tmp/CFNetworkDownload_Occ2S2.tmp, has the name of member 26 before it: unpacking leaves the later one, which is what is reported",
            "member 38, \(Self.app)/Library/Caches/ios8-download.plist, has the name of member 22 before it: unpacking leaves the later one, which is what is reported",
        ]
        #expect(summary["warnings"] as? [String] == warnings)
        #expect(summary["members"] as? Int == 39)
        #expect(summary["files"] as? Int == 14)
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [
            "\(Self.app)/Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592",
            "\(Self.app)/Library/Preferences/com.example.app.plist",
            "filesystem1/private/var/mobile/Containers/Shared/AppGroup/1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D/Library/Preferences/group.com.example.shared.plist",
        ])
        #expect(blobs.map { ($0["partialFile"] as? [String: Any])?["size"] as? Int } == [12288, 12288, 12288])
        let text = try ToolRunner.run(["scan", "duplicate.tar"], in: made.directory.url)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == ["archive duplicate.tar: GNU tar format, 39 members"] + warnings.map { "  warning: " + $0 })
    }
}
