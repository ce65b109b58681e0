import Foundation

/// Base64 for `<data>` elements, written by hand rather than with Foundation's
/// `Data(base64Encoded:options:)` because the reader must accept whitespace anywhere (Foundation
/// only ignores unknown characters wholesale) and the writer must break lines exactly where
/// CoreFoundation does, indented, which no library does.
enum XMLBase64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    // 0...63 for the alphabet, 64 for XML whitespace, 65 for '=', 255 for anything else.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        for byte in [0x20, 0x09, 0x0A, 0x0D] as [UInt8] { table[Int(byte)] = 64 }
        table[Int(UInt8(ascii: "="))] = 65
        return table
    }()

    /// Why some text is not base64: what was found and at which character of the text.
    struct DecodeFailure: Error {
        var reason: String
    }

    /// Decodes base64 that may contain XML whitespace anywhere. Padding may be left out, as
    /// Apple's reader allows; anything else that is not base64 is refused.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) throws(DecodeFailure) -> Data {
        try decodeTable.withUnsafeBufferPointer { table throws(DecodeFailure) in try decode(text, table: table) }
    }

    private static func decode(_ text: UnsafeBufferPointer<UInt8>, table decodeTable: UnsafeBufferPointer<UInt8>) throws(DecodeFailure) -> Data {
        // Sized for the text as if all of it were base64 (whitespace only makes it shorter), so
        // the text is read once.
        var significant = 0
        var output = Data(count: text.count / 4 * 3 + 3)
        var written = 0
        var failure: DecodeFailure?
        output.withUnsafeMutableBytes { raw in
            guard let out = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var accumulator: UInt32 = 0
            var pending = 0       // sextets in the accumulator
            var padding = 0       // '=' seen
            var index = 0
            let count = text.count
            while index < count {
                // Whole groups of four alphabet characters, the bulk of every line, go at once;
                // anything else (whitespace, padding, a group across a line break, an error)
                // takes the character-by-character path below.
                if pending == 0, padding == 0, count - index >= 4 {
                    let a = decodeTable[Int(text[index])], b = decodeTable[Int(text[index + 1])]
                    let c = decodeTable[Int(text[index + 2])], d = decodeTable[Int(text[index + 3])]
                    if a | b | c | d < 64 {
                        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        out[written] = UInt8(truncatingIfNeeded: group >> 16)
                        out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        out[written + 2] = UInt8(truncatingIfNeeded: group)
                        written += 3
                        significant += 4
                        index += 4
                        continue
                    }
                }
                let byte = text[index]
                index += 1
                let sextet = decodeTable[Int(byte)]
                if sextet < 64 {
                    if padding > 0 {
                        failure = DecodeFailure(reason: "base64 character '\(Character(Unicode.Scalar(byte)))' after '=' padding (character \(index))")
                        return
                    }
                    accumulator = accumulator << 6 | UInt32(sextet)
                    significant += 1
                    pending += 1
                    if pending == 4 {
                        out[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                        out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                        out[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                        written += 3
                        accumulator = 0
                        pending = 0
                    }
                } else if sextet == 64 {
                    continue
                } else if sextet == 65 {
                    padding += 1
                    if pending < 2 || pending + padding > 4 {
                        failure = DecodeFailure(reason: "misplaced '=' padding (character \(index))")
                        return
                    }
                } else {
                    let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
                    failure = DecodeFailure(reason: "\(shown) is not a base64 character (character \(index))")
                    return
                }
            }
            switch pending {
            case 0:
                break
            case 1:
                failure = DecodeFailure(reason: "base64 ends with a lone character: \(significant) characters is not a whole number of bytes")
            case 2:
                out[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
                written += 1
            default:
                out[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                written += 2
            }
        }
        if let failure { throw failure }
        output.count = written
        return output
    }

    /// Appends `data` as CoreFoundation's XML writer does: lines of `76 - 8 * indent` characters
    /// (indents count against the line length), each preceded by `indent` tabs and ended by a
    /// newline, with the indent capped at 8 (so at most 8 tabs and at least 12 characters).
    static func appendLines(of data: Data, indent: Int, to output: inout [UInt8]) {
        let indent = min(indent, 8)
        let lineLength = 76 - 8 * indent
        let bytesPerLine = lineLength / 4 * 3
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                let end = min(start + bytesPerLine, bytes.count)
                for _ in 0..<indent { output.append(0x09) }
                var index = start
                while index + 3 <= end {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(alphabet[Int(group >> 6 & 0x3F)])
                    output.append(alphabet[Int(group & 0x3F)])
                    index += 3
                }
                switch end - index {
                case 1:
                    let group = UInt32(bytes[index]) << 16
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(UInt8(ascii: "="))
                    output.append(UInt8(ascii: "="))
                case 2:
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(alphabet[Int(group >> 6 & 0x3F)])
                    output.append(UInt8(ascii: "="))
                default:
                    break
                }
                output.append(0x0A)
                start = end
            }
        }
    }
}
