@testable import ResumeDataCodec
import ResumeSystemCalls
import Testing

/// The two edges where a path meets text (``BytePath/spelled`` and ``BytePath/init(spelled:)``),
/// value by value: one-to-one, and text that spells no path stands for none that can exist.
@Suite struct BytePathSpellingTests {
    @Test(arguments: [
        ([UInt8]("ev/caf".utf8) + [0xE9], "ev/caf\\x{e9}"),
        (Array("ev/caf\\x{e9}".utf8), "ev/caf\\x{5c}x{e9}"),
        (Array("plain/\u{301}x".utf8), "plain/\u{301}x"),
        ([0xFF, UInt8(ascii: "/"), 0xFE], "\\x{ff}/\\x{fe}"),
        ([], ""),
    ] as [([UInt8], String)])
    func aPathAndItsSpelling(_ bytes: [UInt8], _ text: String) {
        let path = BytePath(bytes: bytes)
        #expect(Array(path.spelled.utf8) == Array(text.utf8))
        #expect(BytePath(spelled: text) == path)
    }

    /// Text no path is spelled as is kept behind a NUL: it equals no path found on disk (none
    /// holds a NUL), not the path its own bytes would name, and the seam refuses to open it.
    @Test(arguments: ["caf\\x{41}", "a\\x{ff", "a\\x{0}b", "\\x{5c}x{zz}\\x{zz}"])
    func textThatSpellsNoPathNamesNone(_ text: String) {
        let path = BytePath(spelled: text)
        #expect(path.bytes.first == 0)
        #expect(path != BytePath(text))
        #expect(FileSystemCalls.system.isRegularFile(path) == false)
    }
}
