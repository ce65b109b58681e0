import Foundation
import Testing

/// `resumetool scan` on zip and tar extractions built by `Backups/make_extraction.py`
/// (forensic-formats §3) around the repository's samples: every format gives the findings the
/// same tree gives unpacked as a folder, with exact hashes, sizes, times, pairing and bundle IDs
/// (the metadata plists come after the blobs in the member order); a GrayKey-style archive with
/// no leading folder; and the hostile members: `..`, an absolute name, link members, a zip bomb,
/// a truncated tar.gz, a member longer than its headers declare, 100,000 members.
@Suite struct ArchiveScanTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/make_extraction.py")
    static let appUUID = "8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"
    static let app = "private/var/mobile/Containers/Data/Application/\(appUUID)"
    static let group = "private/var/mobile/Containers/Shared/AppGroup/1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D"
    /// SHA-256 of Samples/ios12-keyed-archive.resumedata, Samples/ios8-local-path.plist and
    /// Samples/CFNetworkDownload_Occ2S2.tmp.
    static let downloadsSHA256 = "b64e8d5ed30de6813d476387c429ce87fb03c5a3be0fd32303007f2f0ebc7095"
    static let ios8SHA256 = "8e3ed602e6492fb51e84f9a1e8f84d1b49c9b294e030d17db982f1ed067f9c6f"
    static let partialSHA256 = "d41d438c379110c7f7b2c561b1f04f26c1b4549110791f8e022f48974280c13e"
    static let modified = "2026-01-02T03:04:06Z"

    /// Extractions made by the generator in a fresh folder.
    final class Extraction {
        let directory: TemporaryDirectory
        init(_ arguments: [String]) throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", ArchiveScanTests.generator.path, directory.url.path] + arguments)
            try #require(made.status == 0, "make_extraction.py: \(String(decoding: made.stderr, as: UTF8.self))")
        }

        func scan(_ arguments: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run(["scan"] + arguments, in: directory.url)
        }

        func json(_ name: String) throws -> (result: ToolRunner.Result, top: [String: Any]) {
            let result = try scan(["--json", name])
            let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return (result, top)
        }

        func sha256(_ relative: String) throws -> String {
            let sum = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", directory.path(relative)])
            return String(String(decoding: sum.stdout, as: UTF8.self).prefix(64))
        }
    }

    /// A finding as a folder scan and an archive scan must both give it: paths from the
    /// extraction's top, everything but the source and times.
    static func comparable(_ finding: [String: Any], prefix: String) -> String {
        var copy = finding
        for key in ["source", "modified", "changed", "created", "mode"] { copy.removeValue(forKey: key) }
        if var partial = copy["partialFile"] as? [String: Any] {
            for key in ["source", "modified", "changed", "created", "mode"] { partial.removeValue(forKey: key) }
            copy["partialFile"] = partial
        }
        let data = (try? JSONSerialization.data(withJSONObject: copy, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: prefix, with: "")
    }

    @Test(arguments: ["zip", "tar", "tar.gz", "tar.bz2", "tar.xz"])
    func everyFormatGivesTheUnpackedTreesFindings(format: String) throws {
        let extraction = try Extraction(["--formats", format])
        let name = "extraction.\(format)"
        let (result, top) = try extraction.json(name)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let prefix = "filesystem1/"
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [
            "\(prefix)\(Self.app)/Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592",
            "\(prefix)\(Self.app)/Library/Caches/ios8-download.plist",
            "\(prefix)\(Self.app)/Library/Preferences/com.example.app.plist",
            "\(prefix)\(Self.group)/Library/Preferences/group.com.example.shared.plist",
        ])
        #expect(blobs.map { $0["keyPath"] as? String } == [nil, nil, "pending[0].resumeData", "lastTask.resumeData"])
        #expect(blobs.map { $0["appContainer"] as? String } == [prefix + Self.app, prefix + Self.app, prefix + Self.app, prefix + Self.group])
        // The metadata plists come last in the archive, after the blobs they name the app of.
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "com.example.app", "group.com.example.shared"])
        #expect(blobs.map { $0["container"] as? String } == ["keyed-archive", "xml", "xml", "nwurlsession"])
        let preferencesSHA256 = try extraction.sha256("tree/\(prefix)\(Self.app)/Library/Preferences/com.example.app.plist")
        let groupSHA256 = try extraction.sha256("tree/\(prefix)\(Self.group)/Library/Preferences/group.com.example.shared.plist")
        #expect(blobs.map { $0["sha256"] as? String } == [Self.downloadsSHA256, Self.ios8SHA256, preferencesSHA256, groupSHA256])
        #expect(blobs.map { $0["size"] as? Int } == [4548, 3972, 5482, 3047])
        #expect(blobs.map { $0["modified"] as? String } == Array(repeating: Self.modified, count: 4))
        #expect(blobs.map { $0["mode"] as? String } == Array(repeating: "100644", count: 4))
        // Tar's pax headers carry the status change and creation times; a zip's DOS header does not.
        let isTar = format != "zip"
        #expect(blobs.map { $0["changed"] as? String } == Array(repeating: isTar ? "2026-01-01T00:00:00Z" : nil, count: 4))
        #expect(blobs.map { $0["created"] as? String } == Array(repeating: isTar ? "2025-12-31T00:00:00Z" : nil, count: 4))
        for blob in blobs {
            let source = try #require(blob["source"] as? [String: Any])
            #expect(source["kind"] as? String == "archive")
            #expect(source["root"] as? String == name)
            #expect(source["inner"] as? String == blob["path"] as? String)
        }
        // Paired inside the archive: TempFileName in the container's tmp/, LocalPath by the device
        // path beneath filesystem1/ (the iOS 8 blob, the app group's Network-framework blob).
        let partialPath = "\(prefix)\(Self.app)/tmp/CFNetworkDownload_Occ2S2.tmp"
        for blob in blobs {
            let partial = try #require(blob["partialFile"] as? [String: Any])
            #expect(partial["path"] as? String == partialPath)
            #expect(partial["size"] as? Int == 4096)
            #expect(partial["sha256"] as? String == Self.partialSHA256)
            #expect(partial["modified"] as? String == Self.modified)
            #expect((partial["source"] as? [String: Any])?["inner"] as? String == partialPath)
            #expect((partial["source"] as? [String: Any])?["kind"] as? String == "archive")
        }
        #expect((blobs[0]["findings"] as? [Any])?.isEmpty == true)
        let findings = try #require(blobs[2]["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["ios10-request-archive", "ios10-request-archive", "temp-file-size"])
        #expect(findings.last?["message"] as? String == "the partial file \(partialPath) has 4096 bytes, fewer than the 2339054 received")
        let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
        let orphanPath = "\(prefix)\(Self.app)/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_a1B2c3.tmp"
        #expect(orphans.map { $0["path"] as? String } == [orphanPath])
        #expect(orphans.first?["bundleID"] as? String == "com.example.app")
        #expect(orphans.first?["size"] as? Int == 5000)
        #expect(orphans.first?["sha256"] as? String == (try extraction.sha256("tree/" + orphanPath)))
        #expect((top["errors"] as? [Any])?.isEmpty == true)
        let archives = try #require(top["archives"] as? [[String: Any]])
        #expect(archives.count == 1)
        #expect(archives.first?["root"] as? String == name)
        #expect(archives.first?["files"] as? Int == 11)
        #expect(archives.first?["members"] as? Int == 36)
        #expect(archives.first?["complete"] as? Bool == true)
        #expect(archives.first?["format"] as? String == (isTar ? "POSIX pax interchange format" : "ZIP 2.0 (deflation)"))

        // The same tree unpacked, scanned as a folder: the same findings but for source and times.
        let (folderResult, folder) = try extraction.json("tree")
        #expect(folderResult.status == 0)
        let folderBlobs = try #require(folder["blobs"] as? [[String: Any]])
        #expect(folderBlobs.map { Self.comparable($0, prefix: "tree/") } == blobs.map { Self.comparable($0, prefix: "") })
        let folderOrphans = try #require(folder["orphanPartialFiles"] as? [[String: Any]])
        #expect(folderOrphans.map { Self.comparable($0, prefix: "tree/") } == orphans.map { Self.comparable($0, prefix: "") })
    }

    @Test func textAndCSVShowTheArchive() throws {
        let extraction = try Extraction(["--formats", "tar.gz", "--no-tree"])
        let text = try extraction.scan(["extraction.tar.gz"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "archive extraction.tar.gz: POSIX pax interchange format, 36 members")
        #expect(lines.contains("filesystem1/\(Self.app):"))
        #expect(lines.contains("    bundle ID:        group.com.example.shared"))
        #expect(lines.contains("  orphan partial file: Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_a1B2c3.tmp, 5,000 bytes (4.9 KiB), modified \(Self.modified)"))
        #expect(lines.suffix(2) == ["11 files scanned: 4 blobs, 1 orphan partial file, 0 errors", ""])
        let csv = try extraction.scan(["--csv", "extraction.tar.gz"])
        #expect(csv.status == 0)
        #expect(csv.stdout.contains(",com.example.app,archive,extraction.tar.gz,filesystem1/\(Self.app)/Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592,\(Self.downloadsSHA256),4548,"))
    }

    /// GrayKey's zips start at `private/var/`, without a leading folder.
    @Test func archiveWithoutALeadingFolder() throws {
        let extraction = try Extraction(["--formats", "zip", "--prefix", "", "--no-tree"])
        let (result, top) = try extraction.json("extraction.zip")
        #expect(result.status == 0)
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["appContainer"] as? String } == [Self.app, Self.app, Self.app, Self.group])
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "com.example.app", "group.com.example.shared"])
        #expect(blobs.map { ($0["partialFile"] as? [String: Any])?["path"] as? String }
                == Array(repeating: "\(Self.app)/tmp/CFNetworkDownload_Occ2S2.tmp", count: 4))
    }

    /// The hostile archive's problems, its blobs and its exit status.
    func hostile(_ kind: String, _ file: String) throws -> (status: Int32, errors: [[String: String]], blobs: [String], archive: [String: Any]) {
        let extraction = try Extraction(["--hostile", kind])
        let (result, top) = try extraction.json(file)
        let errors = (top["errors"] as? [[String: String]]) ?? []
        let blobs = ((top["blobs"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        let archive = try #require((top["archives"] as? [[String: Any]])?.first)
        // Nothing was written out beside the archive.
        let left = try FileManager.default.contentsOfDirectory(atPath: extraction.directory.url.path)
        #expect(left == [file])
        return (result.status, errors, blobs, archive)
    }

    static let firstBlob = "filesystem1/private/var/mobile/Library/Caches/first.resumedata"

    @Test func unsafeNamesAreReportedNeverWritten() throws {
        let dotdot = try hostile("dotdot", "hostile.tar")
        #expect(dotdot.status == 0)
        #expect(dotdot.blobs == [Self.firstBlob])
        #expect(dotdot.errors == [["path": "../escape.plist", "message": "member 7: skipped: a name with ..; never written out"]])
        let absolute = try hostile("absolute", "hostile.tar")
        #expect(absolute.blobs == [Self.firstBlob])
        #expect(absolute.errors == [["path": "/etc/evil.plist", "message": "member 7: skipped: an absolute name; never written out"]])
    }

    @Test func linkMembersAreReportedNeverFollowed() throws {
        let links = try hostile("links", "hostile.tar")
        #expect(links.status == 0)
        #expect(links.blobs == [Self.firstBlob])
        #expect(links.errors == [
            ["path": "filesystem1/private/var/mobile/Library/Caches/link.plist", "message": "member 7: skipped: a symbolic link member, never followed"],
            ["path": "filesystem1/private/var/mobile/Library/Caches/hard.plist", "message": "member 8: skipped: a hard link member, never followed"],
        ])
        #expect(links.archive["files"] as? Int == 1)
    }

    @Test func zipBombIsRefusedAndTheFindingsBeforeItKept() throws {
        let bomb = try hostile("bomb", "hostile.zip")
        #expect(bomb.status == 2)
        #expect(bomb.blobs == [Self.firstBlob])
        #expect(bomb.archive["complete"] as? Bool == false)
        try #require(bomb.errors.count == 1)
        #expect(bomb.errors[0]["path"] == "hostile.zip")
        let message = try #require(bomb.errors[0]["message"])
        #expect(message.hasPrefix("refused at member 1: "))
        #expect(message.hasSuffix(" (an archive bomb) (the last member read: filesystem1/private/var/mobile/zeros.bin); the findings before it are reported"))
    }

    /// A member with an unsafe name is read to nothing, not skipped by libarchive: the bomb bound still applies.
    @Test func zipBombUnderAnUnsafeNameIsRefusedToo() throws {
        let bomb = try hostile("unsafe-bomb", "hostile.zip")
        #expect(bomb.status == 2)
        #expect(bomb.blobs == [Self.firstBlob])
        try #require(bomb.errors.count == 2)
        #expect(bomb.errors[0] == ["path": "../zeros.bin", "message": "member 1: skipped: a name with ..; never written out"])
        #expect(bomb.errors[1]["message"]?.hasPrefix("refused at member 1: ") == true)
    }

    @Test func truncatedArchiveKeepsTheFindingsBeforeTheCut() throws {
        let cut = try hostile("truncated", "hostile.tar.gz")
        #expect(cut.status == 2)
        #expect(cut.blobs == [Self.firstBlob])
        #expect(cut.archive["complete"] as? Bool == false)
        try #require(cut.errors.count == 1)
        #expect(cut.errors[0]["path"] == "hostile.tar.gz")
        let message = try #require(cut.errors[0]["message"])
        #expect(message.hasPrefix("corrupt at member "))
        #expect(message.hasSuffix("; the findings before it are reported"))
    }

    /// libarchive checks a zip member's size against its headers; the pass stops there.
    @Test func memberLongerThanDeclaredStopsThePass() throws {
        let longer = try hostile("longer", "hostile.zip")
        #expect(longer.status == 2)
        #expect(longer.blobs == [Self.firstBlob])
        #expect(longer.archive["complete"] as? Bool == false)
        #expect(longer.errors == [["path": "hostile.zip", "message": "corrupt at member 1: ZIP uncompressed data is wrong size (read 70000, expected 1000) "
                                   + "(the last member read: filesystem1/private/var/mobile/Library/Caches/longer.bin); the findings before it are reported"]])
    }

    @Test func hundredThousandMembers() throws {
        let many = try hostile("many", "hostile.zip")
        #expect(many.status == 0)
        #expect(many.blobs == [Self.firstBlob])
        #expect(many.errors.isEmpty)
        #expect(many.archive["files"] as? Int == 100_001)
        #expect(many.archive["members"] as? Int == 100_001)
    }

    /// A plain file that is not an archive is what it was before archives: not a folder.
    @Test func plainFileKeepsItsOldAnswer() throws {
        let directory = try TemporaryDirectory()
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: directory.path("notes.txt")))
        try Data().write(to: URL(fileURLWithPath: directory.path("empty")))
        for name in ["notes.txt", "empty"] {
            let result = try ToolRunner.run(["scan", name], in: directory.url)
            #expect(result.status == 2)
            #expect(result.stderr == "\(name): error: cannot read the folder: Not a directory\n")
            #expect(result.stdout == "0 files scanned: 0 blobs, 0 orphan partial files, 1 error\n")
        }
    }
}
