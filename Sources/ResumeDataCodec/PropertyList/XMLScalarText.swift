/// The text of `<integer>` and `<real>` elements.
enum XMLScalarText {
    /// XML's whitespace characters.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// The text without surrounding XML whitespace.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = text.count
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    enum IntegerFailure: Error {
        case notANumber
        case overflow
    }

    /// The number of bytes at the start of `text` that Apple's integer reader skips as blanks:
    /// every byte below 0x21 or in 0x7F...0xA0, and any character Unicode calls white space
    /// (U+00A0, U+2003, U+3000…), as swift-foundation's `_skipIntegerWhitespace` does.
    static func integerBlanks(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < text.count {
            let byte = text[index]
            if byte < 0x21 || (byte >= 0x7F && byte <= 0xA0) {
                index += 1
                continue
            }
            guard byte >= 0xC0 else { break }
            // A multi-byte character: decode one scalar (libxml2 has checked the UTF-8).
            var iterator = UnsafeBufferPointer(rebasing: text[index...]).makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.properties.isWhitespace else { break }
            index += String(scalar).utf8.count
        }
        return index - start
    }

    /// Parses an integer as Apple's reader does (CoreFoundation's grammar
    /// `S*(-|+)?S*[0-9]+` or `S*(-|+)?S*0[xX][0-9a-fA-F]+`, S a blank of ``integerBlanks(_:from:)``):
    /// blanks before the sign and between the sign and the digits are allowed (`+\t42`,
    /// ` -\t0xFACE`), nothing after the digits. Positive values go up to `UInt64.max`, negative
    /// ones down to `Int64.min`.
    static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) throws(IntegerFailure) -> PropertyListInteger {
        var index = integerBlanks(text, from: 0)
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
            index += integerBlanks(text, from: index)
        }
        var radix: UInt64 = 10
        if index + 1 < text.count, text[index] == UInt8(ascii: "0"), text[index + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 2
        }
        guard index < text.count else { throw .notANumber }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < text.count {
            let byte = text[index]
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt64(byte - 0x41 + 10)
            default: throw .notANumber
            }
            if !overflow {
                let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
                let (sum, o2) = shifted.addingReportingOverflow(digit)
                overflow = o1 || o2
                magnitude = sum
            }
            index += 1
        }
        if overflow { throw .overflow }
        if negative {
            if magnitude == 0 { return PropertyListInteger(Int64(0)) }
            guard magnitude <= UInt64(Int64.max) + 1 else { throw .overflow }
            return PropertyListInteger(Int64(truncatingIfNeeded: 0 &- magnitude))
        }
        return PropertyListInteger(magnitude)
    }

    /// Parses a real as Apple's reader does: XML whitespace, then a decimal floating-point number
    /// or one of the names of the special values (`nan`, `inf`, `infinity`, each with an optional
    /// sign, any case), and nothing after it (swift-foundation's `bad_XMLReals` refuses
    /// `<real>1.5  </real>`). Hexadecimal (`0x10`, `0x1p4`) is refused, as swift-foundation's
    /// `rejectHexadecimalValues` and CoreFoundation's scanner refuse it. `nil` when it is none of those.
    static func parseReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0
        while start < text.count, isSpace(text[start]) { start += 1 }
        let text = UnsafeBufferPointer(rebasing: text[start...])
        guard !text.isEmpty, text.count <= 1_000, !looksHexadecimal(text) else { return nil }
        let string = String(decoding: text, as: UTF8.self)
        switch string.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Swift's parser takes forms like "nan(0x1)" that Apple's does not; the names are handled above.
        guard let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) else {
            return nil
        }
        return Double(string)
    }

    /// swift-foundation's test for a hexadecimal real: an `x` or `X` before anything but signs,
    /// blanks and zeros (so `0x10`, `-0X1p4`, `00x1`; not `10x`, which fails as a decimal anyway).
    static func looksHexadecimal(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            switch byte {
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0"), 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "x"), UInt8(ascii: "X"): return true
            default: return false
            }
        }
        return false
    }
}
