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

    /// Parses an integer as Apple's reader does: optional sign, then decimal digits or `0x`/`0X`
    /// and hex digits, XML whitespace around it allowed. Positive values go up to `UInt64.max`,
    /// negative ones down to `Int64.min`.
    static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) throws(IntegerFailure) -> PropertyListInteger {
        let text = trimmed(text)
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
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

    /// Parses a real: a decimal or hexadecimal floating-point number, or one of Apple's names for
    /// the special values (`nan`, `inf`, `infinity`, each with an optional sign, any case), XML
    /// whitespace around it allowed. `nil` when it is none of those.
    static func parseReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = trimmed(text)
        guard !text.isEmpty, text.count <= 1_000 else { return nil }
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
}
