import Foundation
@testable import resumetool
import Testing

/// Arguments that are not UTF-8: `scan`'s DIRs are read by their bytes and shown escaped; any
/// other is refused before parsing, saying which, where and what to do. Value by value, and
/// through the built binary with Latin-1 names passed by the shell.
@Suite struct RawArgumentsTests {
    static let latin1: [UInt8] = Array("caf".utf8) + [0xE9]

    @Test func everyUTF8ArgumentPasses() {
        #expect(RawArguments.firstNotUTF8([]) == nil)
        #expect(RawArguments.firstNotUTF8([Array("scan".utf8), Array("caf\u{e9}/cafe\u{301}".utf8), []]) == nil)
        #expect(RawArguments.forParser([Array("inspect".utf8), Array("caf\u{e9}".utf8)]) == .success(["inspect", "caf\u{e9}"]))
    }

    @Test(arguments: [
        // A Latin-1 é, a lone continuation byte, a cut sequence, an overlong `/`, a surrogate.
        ([UInt8]("caf".utf8) + [0xE9], 3, 0xE9, "caf\\x{e9}"),
        ([0x80, 0x61], 0, 0x80, "\\x{80}a"),
        ([0x61, 0xE2, 0x82], 1, 0xE2, "a\\x{e2}\\x{82}"),
        ([0xC0, 0xAF], 0, 0xC0, "\\x{c0}\\x{af}"),
        ([0xED, 0xA0, 0x80], 0, 0xED, "\\x{ed}\\x{a0}\\x{80}"),
    ])
    func theFirstByteThatIsNotUTF8IsNamed(_ bytes: [UInt8], _ offset: Int, _ byte: UInt8, _ shown: String) {
        let refused = RawArguments.firstNotUTF8([Array("scan".utf8), bytes, [0xFF]])
        #expect(refused == RawArguments.NotUTF8(position: 2, offset: offset, byte: byte, shown: shown))
        // Any command but scan refuses it.
        #expect(RawArguments.forParser([Array("inspect".utf8), bytes]) == .failure(.notUTF8(RawArguments.NotUTF8(position: 2, offset: offset, byte: byte, shown: shown))))
    }

    /// `scan` gives the parser the spelling of an argument that is not UTF-8 or holds `\x{`, and
    /// a DIR reads it back to the bytes; an argument left out of the DIRs (an option's value) is
    /// refused after parsing, the first in command-line order.
    @Test func scanTakesItsDIRsByTheirBytes() throws {
        let ff: [UInt8] = [0x61, 0xFF]
        let typed = Array("caf\\x{e9}".utf8)
        let arguments = [Array("scan".utf8), Array("--html".utf8), ff, Self.latin1, Self.latin1, typed, Array("plain".utf8)]
        let parsed = RawArguments.forParser(arguments)
        #expect(parsed == .success(["scan", "--html", "a\\x{ff}", "caf\\x{e9}", "caf\\x{e9}", "caf\\x{5c}x{e9}", "plain"]))
        // Each text reads back to its own bytes: the escape typed as text is not the Latin-1 name.
        let texts = try parsed.get()
        #expect(texts.dropFirst(2).map { ScanRoot(argument: $0)?.path.bytes } == arguments.dropFirst(2).map { $0 })
        #expect(ScanRoot(argument: "caf\\x{41}") == nil)
        #expect(ScanRoot(argument: "caf\\x{e9") == nil)
        #expect(RawArguments.notUTF8(in: arguments, outside: [ff, Self.latin1, Self.latin1]) == nil)
        #expect(RawArguments.notUTF8(in: arguments, outside: [Self.latin1, Self.latin1])?.position == 3)
        // Given twice but taken as a DIR once: the other was an option's value.
        #expect(RawArguments.notUTF8(in: arguments, outside: [ff, Self.latin1])?.position == 5)
        // The escape typed as UTF-8 text is no argument that is not UTF-8.
        #expect(RawArguments.notUTF8(in: arguments, outside: [ff, Self.latin1, Self.latin1, typed]) == nil)
    }

    /// Runs `resumetool` through the shell with `arguments` (shell words, `printf` escapes
    /// allowed) in `directory`.
    static func shell(_ arguments: String, in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try ToolRunner.capture(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" \(arguments)", ToolRunner.executable.path], in: directory)
        return (run.status, String(decoding: run.stdout, as: UTF8.self), String(decoding: run.stderr, as: UTF8.self))
    }

    @Test func theBinaryRefusesALatin1PathOutsideScanWithStatus64() throws {
        let directory = try TemporaryDirectory()
        let run = try Self.shell("inspect \"$(printf 'ev/caf\\351')\"", in: directory.url)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            Error: argument 2 is not UTF-8 (byte 0xe9 at offset 6): ev/caf\\x{e9}; only scan's DIR may be a path that is not UTF-8: \
            give this one as UTF-8, or a link to it whose name is UTF-8

            """)
        let html = try Self.shell("scan --html \"$(printf 'r\\351.html')\" .", in: directory.url)
        #expect(html.status == 64)
        #expect(html.stderr.hasPrefix("Error: argument 3 is not UTF-8 (byte 0xe9 at offset 1): r\\x{e9}.html; only scan's DIR"))
        #expect(try directory.contents() == [])
    }

    /// A UTF-8 name holding `\x{` is its own text to every scan option: the HTML page is
    /// written under the name typed, not the spelling the parser was given.
    @Test func anOptionHoldingTheEscapeOpenerIsTakenAsTyped() throws {
        #expect(ScanOptionText(argument: "r\\x{5c}x{e9}.html").text == "r\\x{e9}.html")
        #expect(ScanOptionText(argument: "plain.html").text == "plain.html")
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("ev"), withIntermediateDirectories: false)
        let run = try Self.shell("scan --html 'r\\x{e9}.html' ev", in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try directory.contents() == ["ev", "r\\x{e9}.html"])
    }

    /// A Latin-1 folder, a backup folder named by byte FF and a tar named in Latin-1, each given
    /// as DIR: scanned by their bytes, their blobs paired, their names shown escaped.
    @Test func theBinaryScansRootsNamedInLatin1() throws {
        let directory = try TemporaryDirectory()
        let folder = "\"$(printf 'caf\\351')\""
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/bin/sh"), ["-c", """
            set -e
            d=$(printf 'caf\\351')
            mkdir -p "$d/Library" "$d/tmp"
            cp "$0/ios12-keyed-archive.resumedata" "$d/Library/dl.resumedata"
            cp "$0/CFNetworkDownload_Occ2S2.tmp" "$d/tmp/"
            tar -cf "$(printf 'ev\\351.tar')" "$d"
            python3 "$1" "$(printf 'bk\\377')"
            """, EndToEnd.samples.path, BackupScanTests.generator.path], in: directory.url)
        try #require(made.status == 0, "\(String(decoding: made.stderr, as: UTF8.self))")

        let text = try Self.shell("scan \(folder)", in: directory.url)
        #expect(text.status == 0)
        #expect(text.stderr == "")
        #expect(text.stdout.hasPrefix("caf\\x{e9}:\n  Library/dl.resumedata\n"))
        #expect(text.stdout.contains("    partial file:     tmp/CFNetworkDownload_Occ2S2.tmp, 4,096 bytes (4.0 KiB), as received\n"))
        #expect(text.stdout.hasSuffix("\n2 files scanned: 1 blob, 0 orphan partial files, 0 errors\n"))

        let json = try Self.shell("scan --json \(folder)", in: directory.url)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let blob = try #require((top["blobs"] as? [[String: Any]])?.first)
        #expect(blob["path"] as? String == "caf\\x{e9}/Library/dl.resumedata")
        #expect((blob["source"] as? [String: Any])?["root"] as? String == "caf\\x{e9}")
        #expect((blob["partialFile"] as? [String: Any])?["path"] as? String == "caf\\x{e9}/tmp/CFNetworkDownload_Occ2S2.tmp")

        let backup = try Self.shell("scan \"$(printf 'bk\\377')\"", in: directory.url)
        #expect(backup.status == 0)
        #expect(backup.stdout.hasPrefix("backup bk\\x{ff}: Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)\n"))
        #expect(backup.stdout.contains("3 blobs"))

        let archive = try Self.shell("scan \"$(printf 'ev\\351.tar')\"", in: directory.url)
        #expect(archive.status == 0)
        #expect(archive.stdout.hasPrefix("archive ev\\x{e9}.tar: "))
        #expect(archive.stdout.contains("caf\\x{e9}:\n  Library/dl.resumedata\n"))

        // The same folder given twice is scanned once; the escape typed as text names nothing.
        #expect(try Self.shell("scan \(folder) \(folder)", in: directory.url).stdout.hasSuffix("\n2 files scanned: 1 blob, 0 orphan partial files, 0 errors\n"))
        let typed = try Self.shell("scan 'caf\\x{e9}x'", in: directory.url)
        #expect(typed.status == 2)
    }
}
