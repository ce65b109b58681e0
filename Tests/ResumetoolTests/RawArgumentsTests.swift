import Foundation
@testable import resumetool
import Testing

/// Arguments that are not UTF-8 are refused before parsing, saying which, where and what to do:
/// value by value, and through the built binary with a Latin-1 folder name passed by the shell.
@Suite struct RawArgumentsTests {
    @Test func everyUTF8ArgumentPasses() {
        #expect(RawArguments.firstNotUTF8([]) == nil)
        #expect(RawArguments.firstNotUTF8([Array("scan".utf8), Array("caf\u{e9}/cafe\u{301}".utf8), []]) == nil)
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
    }

    @Test func theBinaryRefusesALatin1PathWithStatus64() throws {
        let run = try ToolRunner.capture(URL(fileURLWithPath: "/bin/sh"),
                                         ["-c", "\"$0\" scan \"$(printf 'ev/caf\\351')\"", ToolRunner.executable.path])
        #expect(run.status == 64)
        #expect(String(decoding: run.stdout, as: UTF8.self) == "")
        #expect(String(decoding: run.stderr, as: UTF8.self) == """
            Error: argument 2 is not UTF-8 (byte 0xe9 at offset 6): ev/caf\\x{e9}; paths are given as UTF-8: \
            name a folder above it (scan reads the names below a folder by their bytes), or a link to it whose name is UTF-8

            """)
    }
}
