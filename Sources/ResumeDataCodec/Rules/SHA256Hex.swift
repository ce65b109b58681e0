/// A SHA-256 digest spelled as 64 hexadecimal digits: the one rule for `--sha256`, a blob's
/// `ResumeToolExpectedSHA256`, and every digest this package prints or compares.
///
/// Only the ASCII digits and letters `a`–`f` in either case count (Swift's `isHexDigit` also takes
/// full-width digits, which no digest is spelled with); the value is kept in lower case, so two
/// spellings of one digest compare equal.
public struct SHA256Hex: Sendable, Hashable, CustomStringConvertible {
    /// 64 lower-case hexadecimal digits.
    public let text: String

    /// The digest spelled by `text`, or `nil` when `text` is not exactly 64 ASCII hex digits.
    public init?(_ text: String) {
        guard text.utf8.count == 64, text.utf8.allSatisfy(Self.isHexDigit) else { return nil }
        self.text = text.lowercased()
    }

    /// The spelling of a computed digest's 32 bytes.
    public init(digest: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        self.text = String(decoding: text, as: UTF8.self)
    }

    /// The 64 digits.
    public var description: String { text }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
