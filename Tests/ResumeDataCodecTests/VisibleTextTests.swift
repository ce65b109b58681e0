import Testing

@testable import ResumeDataCodec

/// The one escaper for text from outside: which characters, and how each is spelled.
@Suite struct VisibleTextTests {
    @Test(arguments: [
        // Plain text, including non-ASCII letters, emoji and the backslash, is left alone.
        ("https://example.com/a?b=c#d", "https://example.com/a?b=c#d"),
        ("é 😀 中文 \\n", "é 😀 中文 \\n"),
        ("", ""),
        // C0 controls: the four short forms, the rest as \u{…} in lower case.
        ("a\0b", #"a\0b"#),
        ("a\tb", #"a\tb"#),
        ("a\nb", #"a\nb"#),
        ("a\rb", #"a\rb"#),
        ("\r\nX: y", #"\r\nX: y"#),
        ("\u{1}\u{7}\u{8}\u{B}\u{C}", #"\u{1}\u{7}\u{8}\u{b}\u{c}"#),
        ("\u{1B}[2J", #"\u{1b}[2J"#),
        ("\u{1F}", #"\u{1f}"#),
        // DEL and the C1 controls (NEL, CSI).
        ("a\u{7F}b", #"a\u{7f}b"#),
        ("\u{80}\u{85}\u{9B}31m\u{9F}", #"\u{80}\u{85}\u{9b}31m\u{9f}"#),
        // The bidirectional controls and the line and paragraph separators.
        ("https://example.com/\u{202E}gpj.exe", #"https://example.com/\u{202e}gpj.exe"#),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202a}\u{202b}\u{202c}\u{202d}"#),
        ("\u{2066}\u{2067}\u{2068}\u{2069}", #"\u{2066}\u{2067}\u{2068}\u{2069}"#),
        ("\u{200E}\u{200F}\u{61C}", #"\u{200e}\u{200f}\u{61c}"#),
        ("a\u{2028}b\u{2029}", #"a\u{2028}b\u{2029}"#),
        // Their neighbours are printable and stay.
        ("\u{A0}\u{200D}\u{2065}\u{206A}\u{2027}", "\u{A0}\u{200D}\u{2065}\u{206A}\u{2027}"),
    ])
    func escapes(_ text: String, _ shown: String) {
        #expect(VisibleText.escaping(text) == shown)
        // What is shown once passes a second time unchanged, so an error that quotes text already
        // escaped can go through a renderer that escapes again.
        #expect(VisibleText.escaping(shown) == shown)
    }

    @Test(arguments: [
        ([0x61, 0x62], "ab"),
        ([0x61, 0x0A, 0x62], #"a\nb"#),
        ([0xC3, 0xA9], "é"),
        ([0xE2, 0x80, 0xAE], #"\u{202e}"#),
        // Invalid sequences, byte by byte: a lone continuation byte, a truncated sequence, an
        // overlong encoding, a surrogate, a byte that never occurs.
        ([0x61, 0x80, 0x62], #"a\x{80}b"#),
        ([0xE2, 0x80], #"\x{e2}\x{80}"#),
        ([0xE2, 0x80, 0x61], #"\x{e2}\x{80}a"#),
        ([0xC0, 0xAF], #"\x{c0}\x{af}"#),
        ([0xED, 0xA0, 0x80], #"\x{ed}\x{a0}\x{80}"#),
        ([0xFF, 0x0D, 0xC3, 0xA9], #"\x{ff}\r"# + "é"),
        ([], ""),
    ] as [([UInt8], String)])
    func escapesBytes(_ bytes: [UInt8], _ shown: String) {
        #expect(VisibleText.escaping(utf8: bytes) == shown)
    }

    @Test func theRuleScalarByScalar() {
        let escaped = (UInt32(0)...0x2100).compactMap { Unicode.Scalar($0) }.filter(VisibleText.isEscaped).map(\.value)
        var expected: [UInt32] = Array(0...0x1F) + Array(0x7F...0x9F)
        expected += [0x61C, 0x200E, 0x200F, 0x2028, 0x2029]
        expected += Array(0x202A...0x202E) + Array(0x2066...0x2069)
        #expect(escaped == expected)
        #expect(!VisibleText.isEscaped("\u{FEFF}"))
        #expect(!VisibleText.isEscaped("\u{10FFFF}"))
    }

    @Test func theNotation() {
        #expect(VisibleText.escape("\0") == #"\0"#)
        #expect(VisibleText.escape("\u{1B}") == #"\u{1b}"#)
        #expect(VisibleText.escape("\u{202E}") == #"\u{202e}"#)
        // A caller that escapes more spells the rest alike.
        #expect(VisibleText.escape("\"") == #"\u{22}"#)
    }
}
