import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeScan

/// Member names of extractions, verdict by verdict.
@Suite struct ArchiveMemberNameTests {
    @Test func relativeNamesAndTheirDevicePaths() {
        let name = ArchiveMemberName.parse("filesystem1/private/var/mobile/Containers/Data/Application/A/tmp/CFNetworkDownload_x.tmp")
        guard case .relative(let parsed) = name else {
            Issue.record("\(name)")
            return
        }
        #expect(parsed.path == "filesystem1/private/var/mobile/Containers/Data/Application/A/tmp/CFNetworkDownload_x.tmp")
        #expect(parsed.devicePath == "/private/var/mobile/Containers/Data/Application/A/tmp/CFNetworkDownload_x.tmp")
        #expect(ArchiveMemberName.parse("./case-42//private/var/x") == .relative(ArchiveMemberName(components: ["case-42", "private", "var", "x"])))
        #expect(relative("private/var/x")?.devicePath == "/private/var/x")
        #expect(relative("dump/var/mobile/Library/x")?.devicePath == "/private/var/mobile/Library/x")
        #expect(relative("Documents/notes.txt")?.devicePath == nil)
        #expect(relative("a/private")?.devicePath == nil)
        #expect(relative("dir/")?.path == "dir")
    }

    @Test func theDevicesVarIsFoundOneComponentAtATime() {
        let name = ArchiveMemberName(components: ["case", "private", "var", "x", "var", "mobile", "var"])
        #expect((0..<8).map { name.isDeviceVar(at: $0) } == [false, false, true, false, true, false, false, false])
        #expect(ArchiveMemberName(components: ["var", "mobile"]).isDeviceVar(at: 0))
        #expect(!ArchiveMemberName(components: ["var"]).isDeviceVar(at: 0))
        #expect(!ArchiveMemberName(components: ["private", "var"]).isDeviceVar(at: -1))
    }

    @Test(arguments: [
        ("", "an empty name"), ("/etc/passwd", "an absolute name"), ("../x", "a name with .."),
        ("a/../../x", "a name with .."), ("a\\..\\x", "a name with .."), ("C:/x", "a drive letter"),
        ("a\u{0}b", "a NUL byte in the name"),
        // Two Characters, the first a letter with a combining mark (three scalars, four bytes).
        ("e\u{301}:/x", "a drive letter"), ("a/..\\b", "a name with .."),
    ])
    func unsafeNamesSayWhy(name: String, reason: String) {
        #expect(ArchiveMemberName.parse(name) == .unsafe(reason))
    }

    /// The one-pass parser gives the verdict the earlier one gave (split into slices, each part
    /// split again at backslashes), kept below as the oracle, on 20,000 names made of the
    /// characters that matter: separators, dots, colons, NUL, a combining mark, non-ASCII.
    @Test func theOnePassParserAgreesWithTheSplittingOne() {
        let pieces = ["/", "/", "\\", ".", ".", "..", ":", "a", "b", "C", "\u{0}", "e\u{301}", "\u{e9}", "var", "private", "\u{1F600}"]
        var generator = SeededGenerator(state: 0xA4C1_1E5)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...9, using: &generator)
            let name = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(ArchiveMemberName.parse(name) == Self.splittingParse(name), "\(Array(name.utf8))")
        }
    }

    /// The parser before the one-pass one, word for word.
    private static func splittingParse(_ name: String) -> ArchiveMemberName.Verdict {
        let slash = UInt8(ascii: "/")
        let backslash = UInt8(ascii: "\\")
        let bytes = name.utf8
        guard let first = bytes.first else { return .unsafe("an empty name") }
        if first == slash { return .unsafe("an absolute name") }
        if bytes.contains(0) { return .unsafe("a NUL byte in the name") }
        let parts = bytes.split(separator: slash, omittingEmptySubsequences: true)
        let isDotDot = { (part: Substring.UTF8View.SubSequence) in part.count == 2 && part.allSatisfy { $0 == UInt8(ascii: ".") } }
        if parts.contains(where: { $0.split(separator: backslash).contains(where: isDotDot) }) {
            return .unsafe("a name with ..")
        }
        if let drive = parts.first, drive.last == UInt8(ascii: ":"), Substring(drive).count == 2 {
            return .unsafe("a drive letter")
        }
        let components = parts.compactMap { part -> String? in
            part.elementsEqual(CollectionOfOne(UInt8(ascii: "."))) ? nil : String(Substring(part))
        }
        if components.isEmpty { return .root }
        return .relative(ArchiveMemberName(components: components))
    }

    /// `tar czf x.tar.gz .` names the root `./` first: no file, and nothing wrong.
    @Test(arguments: [".", "./", "././/.", ".//"])
    func theArchivesRootIsNoProblem(name: String) {
        #expect(ArchiveMemberName.parse(name) == .root)
    }

    /// ``EvidenceName/text(of:)``, value by value: UTF-8 names as they are, the rest escaped
    /// so that two names are the same text only when they are the same bytes.
    @Test(arguments: [
        (Array("tmp/CFNetworkDownload_Occ2S2.tmp".utf8), "tmp/CFNetworkDownload_Occ2S2.tmp"),
        (Array("Caf\u{e9}/r\u{e9}sum\u{e9}".utf8), "Caf\u{e9}/r\u{e9}sum\u{e9}"),
        // A Windows zip's backslash stays as it is while the name needs no escape.
        (Array("dir\\file".utf8), "dir\\file"),
        ([0x63, 0x61, 0x66, 0xE9], "caf\\x{e9}"),
        ([0x63, 0x61, 0x66, 0xFF], "caf\\x{ff}"),
        // Once escaped, a backslash is escaped too, so the text reads back one way.
        ([0x5C, 0xFF], "\\x{5c}\\x{ff}"),
        // A UTF-8 name that spells an escape is escaped itself: it cannot pass for byte FF.
        (Array("caf\\x{ff}".utf8), "caf\\x{5c}x{ff}"),
        // The opener after a backslash, and the opener's pieces apart, which need no escape.
        (Array("a\\\\x{".utf8), "a\\x{5c}\\x{5c}x{"), (Array("a\\x/{".utf8), "a\\x/{"),
        // A truncated sequence: each byte of it.
        ([0x61, 0xE2, 0x82], "a\\x{e2}\\x{82}"),
        ([], ""),
    ] as [([UInt8], String)])
    func text(_ bytes: [UInt8], _ expected: String) {
        #expect(EvidenceName.text(of: bytes) == expected)
    }

    @Test func differentBytesGiveDifferentTexts() {
        let names: [[UInt8]] = [[0x61, 0xFF], [0x61, 0xFE], Array("a\\x{ff}".utf8), Array("a\u{FFFD}".utf8), [0x61, 0xEF, 0xBF, 0xBD]]
        // The last two are the same bytes.
        #expect(Set(names.map { EvidenceName.text(of: $0) }).count == 4)
    }

    /// What is not unsafe: colons past the first part or in a longer first part, dots that are
    /// part of a name, and the components as the bytes spell them.
    @Test func safeNamesKeepTheirComponents() {
        #expect(relative("ab:/x")?.components == ["ab:", "x"])
        #expect(relative("a/C:/x")?.components == ["a", "C:", "x"])
        #expect(relative(".../..x/x..")?.components == ["...", "..x", "x.."])
        #expect(relative("caf\u{e9}//./r\u{e9}sum\u{e9}/")?.components == ["caf\u{e9}", "r\u{e9}sum\u{e9}"])
    }

    private func relative(_ text: String) -> ArchiveMemberName? {
        if case .relative(let name) = ArchiveMemberName.parse(text) { return name }
        return nil
    }
}

/// ``ArchiveReader`` on real archives that Python's zipfile and tarfile write, hostile ones too.
@Suite struct ArchiveReaderTests {
    /// Runs a Python snippet in `folder` that writes archives there.
    private func python(_ code: String, in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    private func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "archive-reader-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    private func members(of path: String, limits: ArchiveReader.Limits = .init()) throws -> [(ArchiveReader.Member, Data)] {
        let reader = try ArchiveReader(path: path, limits: limits)
        var all: [(ArchiveReader.Member, Data)] = []
        while let member = try reader.next() {
            all.append((member, try reader.contents(upTo: 1 << 20) ?? Data()))
        }
        return all
    }

    @Test(arguments: ["zip", "tar", "tar.gz", "tar.bz2", "tar.xz"])
    func everyFormatGivesItsMembersInOrder(format: String) throws {
        try withFolder { folder in
            try python("""
                import zipfile, tarfile, io, os
                files = [("filesystem1/private/var/mobile/a.plist", b"<plist/>"), ("filesystem1/private/var/mobile/tmp/CFNetworkDownload_1.tmp", b"x" * 70000)]
                fmt = "\(format)"
                if fmt == "zip":
                    with zipfile.ZipFile("t.zip", "w", zipfile.ZIP_DEFLATED) as z:
                        z.writestr("filesystem1/", b"")
                        for n, d in files:
                            i = zipfile.ZipInfo(n, date_time=(2024, 5, 6, 7, 8, 10)); i.compress_type = zipfile.ZIP_DEFLATED
                            z.writestr(i, d)
                else:
                    mode = {"tar": "w", "tar.gz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}[fmt]
                    with tarfile.open("t." + fmt, mode) as t:
                        d = tarfile.TarInfo("filesystem1/"); d.type = tarfile.DIRTYPE; d.mtime = 1700000000; t.addfile(d)
                        for n, data in files:
                            i = tarfile.TarInfo(n); i.size = len(data); i.mtime = 1700000000; i.mode = 0o640
                            t.addfile(i, io.BytesIO(data))
                """, in: folder)
            let all = try members(of: folder + "/t." + format)
            #expect(all.map(\.0.name) == ["filesystem1/", "filesystem1/private/var/mobile/a.plist", "filesystem1/private/var/mobile/tmp/CFNetworkDownload_1.tmp"])
            #expect(all.map(\.0.kind) == [.directory, .regular, .regular])
            #expect(all.map(\.0.index) == [0, 1, 2])
            #expect(all[1].1 == Data("<plist/>".utf8))
            #expect(all[2].1 == Data(repeating: UInt8(ascii: "x"), count: 70_000))
            #expect(all[2].0.declaredSize == 70_000)
            if format != "zip" {
                #expect(all[1].0.modified == 1_700_000_000)
                #expect(all[1].0.mode & 0o777 == 0o640)
            }
        }
    }

    @Test func linksAreReportedNotFollowed() throws {
        try withFolder { folder in
            try python("""
                import tarfile, io
                with tarfile.open("links.tar", "w") as t:
                    s = tarfile.TarInfo("var/mobile/evil"); s.type = tarfile.SYMTYPE; s.linkname = "/etc/shadow"; t.addfile(s)
                    h = tarfile.TarInfo("var/mobile/hard"); h.type = tarfile.LNKTYPE; h.linkname = "var/mobile/evil"; t.addfile(h)
                    f = tarfile.TarInfo("../escape"); f.size = 3; t.addfile(f, io.BytesIO(b"abc"))
                """, in: folder)
            let all = try members(of: folder + "/links.tar")
            #expect(all.map(\.0.kind) == [.symbolicLink, .hardLink, .regular])
            #expect(all[0].1.isEmpty && all[1].1.isEmpty)
            #expect(ArchiveMemberName.parse(all[2].0.name) == .unsafe("a name with .."))
        }
    }

    @Test func aZipBombIsRefusedAtTheExpansionBound() throws {
        try withFolder { folder in
            // 256 MiB of zeros deflate to about 256 KiB: a thousandfold.
            try python("""
                import zipfile
                with zipfile.ZipFile("bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
                    with z.open("zeros.bin", "w", force_zip64=True) as f:
                        block = bytes(1 << 20)
                        for _ in range(256): f.write(block)
                """, in: folder)
            var limits = ArchiveReader.Limits()
            limits.expansionAllowance = 1 << 20
            let reader = try ArchiveReader(path: folder + "/bomb.zip", limits: limits)
            let member = try #require(try reader.next())
            #expect(member.name == "zeros.bin")
            do {
                _ = try reader.read { _ in }
                Issue.record("the bomb was read to its end")
            } catch let failure as ArchiveReader.Failure {
                guard case .bomb(member: 0, let expanded, let compressed) = failure else {
                    Issue.record("\(failure)")
                    return
                }
                #expect(expanded > 1 << 20)
                #expect(expanded < 16 << 20)
                #expect(expanded / compressed > 200)
            }
        }
    }

    @Test func theMemberCountIsBounded() throws {
        try withFolder { folder in
            try python("""
                import tarfile, io
                with tarfile.open("many.tar", "w") as t:
                    for i in range(50):
                        f = tarfile.TarInfo("f%d" % i); f.size = 1; t.addfile(f, io.BytesIO(b"x"))
                """, in: folder)
            var limits = ArchiveReader.Limits()
            limits.maximumMembers = 20
            #expect(throws: ArchiveReader.Failure.tooManyMembers(20)) { try members(of: folder + "/many.tar", limits: limits) }
            #expect(try members(of: folder + "/many.tar").count == 50)
        }
    }

    @Test func aTruncatedArchiveFailsAtItsMember() throws {
        try withFolder { folder in
            try python("""
                import tarfile, io, os
                with tarfile.open("whole.tar.gz", "w:gz") as t:
                    for i in range(3):
                        data = os.urandom(200000)
                        f = tarfile.TarInfo("f%d" % i); f.size = len(data); t.addfile(f, io.BytesIO(data))
                data = open("whole.tar.gz", "rb").read()
                open("cut.tar.gz", "wb").write(data[: len(data) // 2])
                """, in: folder)
            do {
                _ = try members(of: folder + "/cut.tar.gz")
                Issue.record("a truncated archive read to its end")
            } catch let failure as ArchiveReader.Failure {
                guard case .corrupt(let member, let reason) = failure else {
                    Issue.record("\(failure)")
                    return
                }
                #expect(member == 1)
                #expect(!reason.isEmpty)
            }
        }
    }

    @Test func notAnArchiveAndNotAFileAreClearErrors() throws {
        try withFolder { folder in
            try Data("just text, not an archive\n".utf8).write(to: URL(fileURLWithPath: folder + "/plain.txt"))
            #expect(throws: ArchiveReader.Failure.self) { try members(of: folder + "/plain.txt") }
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.zip", withDestinationPath: folder + "/plain.txt")
            #expect(throws: ArchiveReader.Failure.cannotOpen("it is a symbolic link")) { try ArchiveReader(path: folder + "/link.zip") }
            #expect(throws: ArchiveReader.Failure.cannotOpen("No such file or directory")) { try ArchiveReader(path: folder + "/missing.zip") }
        }
    }
}
