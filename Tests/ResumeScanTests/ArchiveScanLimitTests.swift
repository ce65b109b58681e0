import Foundation
import Testing

@testable import ResumeScan

/// ``ArchiveScan``'s bounds, each lowered so that an archive the generator writes crosses it:
/// members, the read limit, what is remembered for pairing, the repeats told; and a later member
/// of a name replacing an earlier one, as unpacking would, with a warning.
@Suite struct ArchiveScanLimitTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ResumetoolTests/Backups/make_extraction.py").standardizedFileURL

    private func withExtraction<T>(_ arguments: [String], _ body: (String) throws -> T) throws -> T {
        let folder = NSTemporaryDirectory() + "archive-scan-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.generator.path, folder] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try body(folder)
    }

    @Test func membersAreBoundedAndTheFindingsBeforeKept() throws {
        try withExtraction(["--hostile", "many"]) { folder in
            var scan = ArchiveScan(root: folder + "/hostile.zip")
            scan.limits.maximumMembers = 50_000
            let outcome = try #require(scan.run())
            #expect(outcome.summary.isComplete == false)
            #expect(outcome.summary.memberCount == 50_000)
            #expect(outcome.findings.map(\.path) == ["filesystem1/private/var/mobile/Library/Caches/first.resumedata"])
            #expect(outcome.errors == [ScanProblem(path: folder + "/hostile.zip", message: "more than 50000 members; the findings before it are reported")])
        }
    }

    @Test func membersOverTheReadLimitAreHashedNotSearched() throws {
        try withExtraction(["--formats", "tar", "--no-tree"]) { folder in
            var scan = ArchiveScan(root: folder + "/extraction.tar")
            scan.readLimit = 1000
            let outcome = try #require(scan.run())
            #expect(outcome.summary.isComplete)
            // Every blob is larger than 1000 bytes: only the partial files remain, hashed.
            #expect(outcome.findings.map(\.path).map { String($0.split(separator: "/").last ?? "") }
                    == ["CFNetworkDownload_a1B2c3.tmp", "CFNetworkDownload_Occ2S2.tmp"])
            #expect(outcome.findings.allSatisfy { $0.blobs.isEmpty })
            #expect(outcome.findings.last?.sha256 == "d41d438c379110c7f7b2c561b1f04f26c1b4549110791f8e022f48974280c13e")
            // The metadata plists are small: the bundle IDs are still known.
            #expect(outcome.bundleIDs.values.sorted() == ["com.example.app", "group.com.example.shared"])
        }
    }

    @Test func rememberedNamesAreBounded() throws {
        try withExtraction(["--formats", "zip", "--no-tree"]) { folder in
            var scan = ArchiveScan(root: folder + "/extraction.zip")
            scan.maximumRemembered = 1
            let outcome = try #require(scan.run())
            #expect(outcome.containers.count == 1)
            #expect(outcome.errors == [ScanProblem(path: folder + "/extraction.zip", message:
                "more than 1 containers, UUID folders or tmp/ files: later ones are not used to pair blobs")])
        }
    }

    @Test func aLaterMemberOfTheSameNameReplacesTheEarlier() throws {
        try withExtraction(["--hostile", "dotdot"]) { folder in
            // Append a second member named like the blob, holding text: unpacking would leave the text.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import tarfile, io
                with tarfile.open("\(folder)/hostile.tar", "a") as t:
                    info = tarfile.TarInfo("filesystem1/private/var/mobile/Library/Caches/first.resumedata"); info.size = 5
                    t.addfile(info, io.BytesIO(b"text\\n"))
                """]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let outcome = try #require(ArchiveScan(root: folder + "/hostile.tar").run())
            #expect(outcome.findings.isEmpty)
            #expect(outcome.summary.fileCount == 2)
            #expect(outcome.summary.warnings == ["member 8, filesystem1/private/var/mobile/Library/Caches/first.resumedata, has the name of member 6 "
                                                 + "before it: unpacking leaves the later one, which is what is reported"])
        }
    }

    /// Scans a tar that Python's tarfile writes: `script` adds the members to `t`.
    private func scanMadeTar(_ script: String) throws -> ArchiveScan.Outcome {
        let folder = NSTemporaryDirectory() + "archive-scan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let body = script.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import tarfile, io\nwith tarfile.open(\"\(folder)/made.tar\", \"w\") as t:\n" + body]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try #require(ArchiveScan(root: folder + "/made.tar").run())
    }

    /// Members that are nothing to the scan (text, a link) are told too when they come again:
    /// the later one is what unpacking leaves, whatever either is.
    @Test func aRepeatedMemberIsToldWhateverItIs() throws {
        let outcome = try scanMadeTar("""
            for n, name in enumerate(["app/Documents/readme.txt", "app/Documents", "app/Documents/readme.txt", "app/other.txt"]):
                info = tarfile.TarInfo(name)
                if name == "app/Documents":
                    info.type = tarfile.DIRTYPE
                    t.addfile(info)
                else:
                    info.size = 3; t.addfile(info, io.BytesIO(b"ab\\n"))
            info = tarfile.TarInfo("app/other.txt"); info.type = tarfile.SYMTYPE; info.linkname = "readme.txt"
            t.addfile(info)
            info = tarfile.TarInfo("app/Documents"); info.type = tarfile.DIRTYPE
            t.addfile(info)
            """)
        #expect(outcome.findings.isEmpty)
        #expect(outcome.summary.memberCount == 6)
        // A folder listed twice is no member hiding another.
        #expect(outcome.summary.warnings == [
            "member 2, app/Documents/readme.txt, has the name of member 0 before it: unpacking leaves the later one, which is what is reported",
            "member 4, app/other.txt, has the name of member 3 before it: unpacking leaves the later one, which is what is reported",
        ])
    }

    /// 23 members of one partial file's name: the first 20 repeats are told by name, the rest counted.
    @Test func repeatedNamesAreToldWithinABound() throws {
        let outcome = try scanMadeTar("""
            for n in range(23):
                info = tarfile.TarInfo("app/tmp/CFNetworkDownload_abcdef.tmp"); info.size = n
                t.addfile(info, io.BytesIO(bytes(n)))
            """)
        #expect(outcome.findings.map(\.status.size) == [22])
        #expect(outcome.summary.warnings.count == 21)
        #expect(outcome.summary.warnings.first == "member 1, app/tmp/CFNetworkDownload_abcdef.tmp, has the name of member 0 before it: "
                                                  + "unpacking leaves the later one, which is what is reported")
        #expect(outcome.summary.warnings.dropLast().last?.hasPrefix("member 20, app/tmp/CFNetworkDownload_abcdef.tmp, has the name of member 19 ") == true)
        #expect(outcome.summary.warnings.last == "and 2 more members with an earlier one's name")
    }

    @Test func plainFilesAreNotArchives() throws {
        let folder = NSTemporaryDirectory() + "archive-scan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("bplist00 and more".utf8).write(to: URL(fileURLWithPath: folder + "/x.plist"))
        try Data().write(to: URL(fileURLWithPath: folder + "/empty"))
        #expect(ArchiveScan(root: folder + "/x.plist").run() == nil)
        #expect(ArchiveScan(root: folder + "/empty").run() == nil)
        #expect(ArchiveScan.isRegularFile(folder + "/x.plist"))
        #expect(!ArchiveScan.isRegularFile(folder))
    }
}
