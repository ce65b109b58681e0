@testable import ResumeDataCodec
@testable import ResumeScan
import Testing

/// ``EvidenceName``, value by value: a path is spelled component by component, and a spelling is
/// read back to the bytes it stands for only when it is the rule's own spelling of them.
@Suite struct EvidenceNameTests {
    @Test(arguments: [
        (Array("Library/tmp/CFNetworkDownload_Occ2S2.tmp".utf8), "Library/tmp/CFNetworkDownload_Occ2S2.tmp"),
        // Only the component that needs the escape is escaped: a folder reads alike in every path.
        (Array("dir\\x/caf".utf8) + [0xE9], "dir\\x/caf\\x{e9}"),
        (Array("a\\b/c\\x{/d".utf8), "a\\b/c\\x{5c}x{/d"),
        ([0xFF, 0x2F, 0x2F, 0xFE], "\\x{ff}//\\x{fe}"),
        (Array("/abs/".utf8) + [0x80], "/abs/\\x{80}"),
        ([], ""),
    ] as [([UInt8], String)])
    func path(_ bytes: [UInt8], _ expected: String) {
        #expect(EvidenceName.text(ofPath: bytes) == expected)
    }

    /// A blob's names are text: only a component that spells the opener is escaped.
    @Test(arguments: [
        ("CFNetworkDownload_\\x{ff}.tmp", "CFNetworkDownload_\\x{5c}x{ff}.tmp"),
        ("/private/var/a\\b/caf\\x{e9}/x", "/private/var/a\\b/caf\\x{5c}x{e9}/x"),
        ("caf\u{e9}", "caf\u{e9}"),
    ] as [(String, String)])
    func blobPath(_ text: String, _ expected: String) {
        #expect(EvidenceName.text(ofBlobPath: text) == expected)
    }

    @Test(arguments: [
        ("plain", Array("plain".utf8)),
        ("caf\\x{e9}", Array("caf".utf8) + [0xE9]),
        ("\\x{5c}\\x{ff}", [0x5C, 0xFF]),
        ("caf\\x{5c}x{ff}", Array("caf\\x{ff}".utf8)),
        ("a\\x{e2}\\x{82}", [0x61, 0xE2, 0x82]),
        // A lone backslash in a name without the opener is the byte itself.
        ("dir\\file", Array("dir\\file".utf8)),
        ("", []),
    ] as [(String, [UInt8])])
    func readsBack(_ text: String, _ bytes: [UInt8]) {
        #expect(EvidenceName.bytes(of: text) == bytes)
        #expect(EvidenceName.text(of: bytes) == text)
    }

    /// Texts the rule never writes stand for no name: so no two texts open one file.
    @Test(arguments: [
        // A valid character escaped, a backslash left bare beside an escape, escapes the rule
        // does not write (upper case, leading zero, three digits, none), an unclosed one.
        "\\x{41}", "a\\b\\x{ff}", "\\x{FF}", "\\x{0ff}", "\\x{100}", "\\x{}", "\\x{ff", "\\x{zz}", "\\y{ff}\\x{ff}",
        // Bytes that together are UTF-8 (é) are never escaped by the rule.
        "\\x{c3}\\x{a9}",
    ])
    func standsForNothing(_ text: String) {
        #expect(EvidenceName.bytes(of: text) == nil)
    }

    /// Every name's spelling reads back to its bytes, which is what opens the file.
    @Test(arguments: [[0x61, 0xFF], [0x61, 0xFE], Array("a\\x{ff}".utf8), Array("a\u{FFFD}".utf8), [0x5C, 0x5C, 0x80], [0xC3], Array("caf\u{e9}".utf8)] as [[UInt8]])
    func everyNameReadsBack(_ name: [UInt8]) {
        #expect(EvidenceName.bytes(of: EvidenceName.text(of: name)) == name)
    }

    /// Every path's spelling reads back to its bytes, which is what opens a root the user named.
    @Test(arguments: [
        Array("/ev/caf".utf8) + [0xE9], [0xFF, 0x2F, 0x2F, 0xFE], Array("/a\\x{/b/".utf8) + [0x80], Array("rel/a\\x{ff}".utf8),
        Array("/\u{301}x/caf\u{e9}".utf8), Array("/".utf8), [],
    ] as [[UInt8]])
    func everyPathReadsBack(_ path: [UInt8]) {
        #expect(EvidenceName.bytes(ofPath: EvidenceName.text(ofPath: path)) == path)
    }

    /// A path whose components are not the rule's spellings stands for no bytes: `\x{41}` is
    /// not how `A` is spelled, and a lone `\x{ff}` beside UTF-8 that needs no escape is not
    /// how byte FF is spelled next to a backslash.
    @Test(arguments: ["/ev/\\x{41}", "/ev/a\\x{zz}/b", "/ev/\\x{100}", "/ev/\\x{"])
    func aPathThatIsNoSpellingStandsForNothing(_ text: String) {
        #expect(EvidenceName.bytes(ofPath: text) == nil)
    }

    @Test func aPathWithoutTheOpenerIsItsOwnBytes() {
        #expect(EvidenceName.bytes(ofPath: "/ev/caf\u{e9}/a\\b") == Array("/ev/caf\u{e9}/a\\b".utf8))
    }
}
