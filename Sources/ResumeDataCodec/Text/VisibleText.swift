/// Text from outside (a blob, a ledger, a server's header, a path, an argument) made safe to
/// print: the one rule for which characters are shown escaped, and the one notation for them,
/// used by every report and every error message.
///
/// Printed raw, such text could end the line it is on and forge the next one (CR, LF), rewrite
/// the terminal (ESC and the C1 CSI), or make a line read in another order than its bytes
/// (the bidirectional controls: `…/\u{202e}gpj.exe` shows as `…/exe.jpg`). So:
/// - escaped: the C0 controls (U+0000–U+001F), DEL (U+007F), the C1 controls (U+0080–U+009F),
///   the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the
///   line and paragraph separators (U+2028, U+2029); in bytes that are not UTF-8, each byte of an
///   invalid sequence;
/// - the notation is Swift's string-literal one: `\0`, `\t`, `\n`, `\r`, else `\u{1b}` (lowercase
///   hex, no leading zeros); an invalid byte is `\x{ff}`.
///
/// The escape is for reading, not for reversing: a backslash is printed as it is, so text that
/// already spells `\n` reads the same as an escaped line feed.
public enum VisibleText {
    /// `text` with every character of the rule escaped; the same string when there is none.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            append(scalar, to: &out)
        }
        return out
    }

    /// `bytes` read as UTF-8, with every character of the rule escaped and each byte of an
    /// invalid sequence shown as `\x{ff}` (where `String(decoding:as:)` would put a U+FFFD that
    /// hides what the bytes were).
    public static func escaping(utf8 bytes: some Collection<UInt8>) -> String {
        decoding(utf8: bytes) { scalar, out in append(scalar, to: &out) }
    }

    /// `bytes` read as UTF-8: each scalar given to `write`, each byte of an invalid sequence
    /// written as `\x{ff}`. The one walk over bytes that may not be UTF-8; callers differ only in
    /// what they do with a valid scalar (escape controls, or a backslash).
    package static func decoding(utf8 bytes: some Collection<UInt8>, writing write: (Unicode.Scalar, inout String) -> Void) -> String {
        var out = ""
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        // The parser consumes the bytes in order, so the count parsed so far is where an invalid
        // sequence starts.
        var parsed = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                parsed += encoded.count
                write(Unicode.UTF8.decode(encoded), &out)
            case .error(let length):
                for byte in bytes.dropFirst(parsed).prefix(length) {
                    out += "\\x{" + String(byte, radix: 16) + "}"
                }
                parsed += length
            case .emptyInput:
                return out
            }
        }
    }

    /// Whether `scalar` is shown escaped: a control, a bidirectional control or a line or
    /// paragraph separator.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `scalar` in the notation: `\0`, `\t`, `\n`, `\r` or `\u{…}`; for callers that escape more
    /// (a quoted string escapes its quote and backslash too) and must spell the rest alike.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\0": "\\0"
        case "\t": "\\t"
        case "\n": "\\n"
        case "\r": "\\r"
        default: "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        if isEscaped(scalar) {
            out += escape(scalar)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
}
