extension StringProtocol {
    /// Equal when the UTF-8 bytes are, ignoring the case of ASCII letters only: how HTTP compares
    /// field names and URL schemes. (`caseInsensitiveCompare` goes through Foundation's Unicode
    /// folding, which showed up in profiles of `inspect` and is wrong for these anyway.)
    func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8) { Self.lowercasedASCII($0) == Self.lowercasedASCII($1) }
    }

    /// True when the string starts with `prefix`, ignoring the case of ASCII letters.
    func hasPrefixIgnoringASCIICase(_ prefix: some StringProtocol) -> Bool {
        var bytes = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), Self.lowercasedASCII(byte) == Self.lowercasedASCII(expected) else { return false }
        }
        return true
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
