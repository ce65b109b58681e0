import Foundation

/// XML property lists in UTF-32 with a byte-order mark, which Apple's readers take
/// (swift-foundation's `dataWithBOM_utf32be` test) and libxml2 2.9 does not: it decodes UCS-4
/// but keeps the byte-order mark as a character, and then finds no markup at the start.
///
/// Such input is converted to UTF-8 here, before libxml2 sees it, and the parser is told to
/// ignore the encoding the declaration names (it still says UTF-32). Line and column numbers are
/// unchanged, as they count characters.
enum XMLUTF32Input {
    /// The byte order a byte-order mark at the start of `bytes` names, if it is a UTF-32 one:
    /// `00 00 FE FF` big-endian, `FF FE 00 00` little-endian (checked before UTF-16's `FF FE`,
    /// which it starts with; a UTF-16 document cannot go on with U+0000).
    static func byteOrder(of bytes: Data) -> Endianness? {
        guard bytes.count >= 4 else { return nil }
        let start = bytes.startIndex
        switch (bytes[start], bytes[start + 1], bytes[start + 2], bytes[start + 3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .big
        case (0xFF, 0xFE, 0x00, 0x00): return .little
        default: return nil
        }
    }

    enum Endianness {
        case big, little
    }

    /// The UTF-8 of the characters after the byte-order mark.
    /// - Throws: ``PropertyListError`` (`invalidString`) at the byte of a unit that is no Unicode
    ///   scalar (a surrogate, or above U+10FFFF), or when the length is not a multiple of four.
    static func utf8(from bytes: Data, byteOrder: Endianness) throws -> Data {
        guard bytes.count % 4 == 0 else {
            throw PropertyListError(
                .invalidString, "UTF-32 input (it starts with a UTF-32 byte-order mark) is \(bytes.count) bytes, not a multiple of 4",
                at: .byteOffset(bytes.count - bytes.count % 4, objectIndex: nil))
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4)
        try bytes.withUnsafeBytes { raw in
            var offset = 4
            while offset < raw.count {
                let b0 = UInt32(raw[offset]), b1 = UInt32(raw[offset + 1]), b2 = UInt32(raw[offset + 2]), b3 = UInt32(raw[offset + 3])
                let unit = byteOrder == .big ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
                guard let scalar = Unicode.Scalar(unit) else {
                    throw PropertyListError(
                        .invalidString, "invalid UTF-32: 0x\(String(unit, radix: 16)) is not a Unicode character",
                        at: .byteOffset(offset, objectIndex: nil))
                }
                output.append(contentsOf: UTF8.encode(scalar).map(Array.init) ?? [])
                offset += 4
            }
        }
        return Data(output)
    }
}
