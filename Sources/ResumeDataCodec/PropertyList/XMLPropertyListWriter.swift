import Foundation

/// Writes XML property lists in Apple's layout, byte for byte as CoreFoundation writes them:
/// the XML declaration, Apple's DOCTYPE, `<plist version="1.0">`, tab indentation, `<true/>` /
/// `<false/>`, `<dict/>` and `<array/>` when empty, base64 in lines broken where CoreFoundation
/// breaks them, dates in UTC to the second (rounded down), reals as `%.17g`.
///
/// Like Apple's, the output loses what XML cannot spell: the sign of a zero real (`0.0`), whether
/// a real was 32-bit, fractions of a second in dates.
///
/// Differences from Apple, both so that our own output reads back to the same value:
/// - A carriage return in a string or key is written `&#13;`; Apple writes it raw, and XML
///   parsers (libxml2 included) turn a raw one into a line feed.
/// - A set, which XML cannot hold, is written as an `<array>` (Apple refuses sets altogether).
///
/// Strings holding characters XML 1.0 cannot carry (controls other than tab, line feed and
/// carriage return; U+FFFE, U+FFFF) are refused with `PropertyListError.Code.unrepresentable`, and
/// so is a binary plist's null object, which XML has no element for (the error names its key path).
struct XMLPropertyListWriter {
    var keyOrder: PropertyListWriter.KeyOrder

    private static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
    private static let footer = Array("</plist>\n".utf8)

    func write(_ value: PropertyListValue) throws -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        output.append(contentsOf: Self.header)
        try append(value, indent: 0, to: &output)
        output.append(contentsOf: Self.footer)
        return Data(output)
    }

    private func append(_ value: PropertyListValue, indent: Int, to output: inout [UInt8]) throws {
        Self.appendIndent(indent, to: &output)
        switch value {
        case .string(let string):
            output.append(contentsOf: "<string>".utf8)
            try Self.appendEscaped(string, to: &output)
            output.append(contentsOf: "</string>\n".utf8)
        case .integer(let integer):
            output.append(contentsOf: "<integer>".utf8)
            if let signed = integer.int64Value {
                Self.appendDecimal(signed.magnitude, negative: signed < 0, to: &output)
            } else if let unsigned = integer.uint64Value {
                Self.appendDecimal(unsigned, negative: false, to: &output)
            }
            output.append(contentsOf: "</integer>\n".utf8)
        case .real(let real):
            output.append(contentsOf: "<real>".utf8)
            Self.appendReal(real.value, to: &output)
            output.append(contentsOf: "</real>\n".utf8)
        case .boolean(let flag):
            output.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
        case .null:
            // CoreFoundation's XML writer fails on kCFNull too: XML plists have no null element,
            // and writing anything else would read back as another value.
            throw PropertyListError(.unrepresentable, "a null object (binary marker 0x00) has no XML spelling", keyPath: "root")
        case .date(let date):
            // NaN, infinities and dates beyond ±9e15 s have no calendar spelling: refuse them
            // rather than write a date that reads back as another one. Whole seconds, as Apple's
            // writer does.
            guard let text = ISO8601DateText.string(date, fractionalSeconds: false) else {
                throw PropertyListError(
                    .unrepresentable,
                    "a date of \(date.timeIntervalSinceReferenceDate) seconds since 2001-01-01 has no XML spelling")
            }
            output.append(contentsOf: "<date>".utf8)
            output.append(contentsOf: text.utf8)
            output.append(contentsOf: "</date>\n".utf8)
        case .data(let data):
            output.append(contentsOf: "<data>\n".utf8)
            XMLBase64.appendLines(of: data, indent: indent, to: &output)
            Self.appendIndent(indent, to: &output)
            output.append(contentsOf: "</data>\n".utf8)
        case .array(let items), .set(let items):
            try Self.appendContainer("array", isEmpty: items.isEmpty, indent: indent, to: &output) { output in
                for (index, item) in items.enumerated() {
                    try Self.at("[\(index)]") { try append(item, indent: indent + 1, to: &output) }
                }
            }
        case .dictionary(let dictionary):
            try Self.appendContainer("dict", isEmpty: dictionary.isEmpty, indent: indent, to: &output) { output in
                for (key, item) in keyOrder == .sorted ? dictionary.sortedByKey() : dictionary {
                    try Self.at(".\(key)") {
                        Self.appendIndent(indent + 1, to: &output)
                        output.append(contentsOf: "<key>".utf8)
                        try Self.appendEscaped(key, to: &output)
                        output.append(contentsOf: "</key>\n".utf8)
                        try append(item, indent: indent + 1, to: &output)
                    }
                }
            }
        case .uid(let uid):
            output.append(contentsOf: "<dict>\n".utf8)
            Self.appendIndent(indent + 1, to: &output)
            output.append(contentsOf: "<key>CF$UID</key>\n".utf8)
            Self.appendIndent(indent + 1, to: &output)
            output.append(contentsOf: "<integer>".utf8)
            Self.appendDecimal(uid, negative: false, to: &output)
            output.append(contentsOf: "</integer>\n".utf8)
            Self.appendIndent(indent, to: &output)
            output.append(contentsOf: "</dict>\n".utf8)
        }
    }

    /// `root` + path components, innermost last: the writer adds them as the error unwinds.
    /// `<tag/>` when empty, as Apple writes an empty array or dictionary; else `<tag>`, the
    /// contents, and `</tag>` at the container's indent (the opening one is already written).
    private static func appendContainer(
        _ tag: String, isEmpty: Bool, indent: Int, to output: inout [UInt8], contents: (inout [UInt8]) throws -> Void
    ) throws {
        guard !isEmpty else {
            output.append(contentsOf: "<\(tag)/>\n".utf8)
            return
        }
        output.append(contentsOf: "<\(tag)>\n".utf8)
        try contents(&output)
        appendIndent(indent, to: &output)
        output.append(contentsOf: "</\(tag)>\n".utf8)
    }

    /// Runs `body`, putting `component` in front of the key path of the error it throws
    /// (spelled only then: writing must not pay for a path per value).
    private static func at(_ component: @autoclosure () -> String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch var error as PropertyListError {
            error.keyPath = join(component(), error.keyPath)
            throw error
        }
    }

    private static func join(_ component: String, _ rest: String?) -> String {
        guard let rest else { return "root" + component }
        return "root" + component + rest.dropFirst(4)
    }

    private static func appendIndent(_ indent: Int, to output: inout [UInt8]) {
        for _ in 0..<indent { output.append(0x09) }
    }

    /// Escapes `&`, `<`, `>` as Apple does, and a carriage return as `&#13;` (see the type's notes).
    private static func appendEscaped(_ string: String, to output: inout [UInt8]) throws {
        var string = string
        try string.withUTF8 { try appendEscaped($0, to: &output) }
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) throws {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let replacement: StaticString
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case 0x0D: replacement = "&#13;"
            case 0x09, 0x0A:
                index += 1
                continue
            case 0x00..<0x20:
                throw PropertyListError(
                    .unrepresentable,
                    "XML 1.0 cannot hold the control character U+\(hex4(UInt32(byte))) in a string (use a binary property list)")
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                let scalar: UInt32 = bytes[index + 2] == 0xBE ? 0xFFFE : 0xFFFF
                throw PropertyListError(
                    .unrepresentable,
                    "XML 1.0 cannot hold the noncharacter U+\(hex4(scalar)) in a string (use a binary property list)")
            default:
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            replacement.withUTF8Buffer { output.append(contentsOf: $0) }
            index += 1
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func appendDecimal(_ magnitude: UInt64, negative: Bool, to output: inout [UInt8]) {
        if negative { output.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            var rest = magnitude
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// CoreFoundation's spelling: `nan`, `+infinity`, `-infinity`, `0.0` for either zero, else
    /// `%.17g` (`60`, `0.10000000000000001`).
    private static func appendReal(_ value: Double, to output: inout [UInt8]) {
        if value.isNaN {
            output.append(contentsOf: "nan".utf8)
        } else if value.isInfinite {
            output.append(contentsOf: (value < 0 ? "-infinity" : "+infinity").utf8)
        } else if value == 0 {
            output.append(contentsOf: "0.0".utf8)
        } else {
            var buffer = [CChar](repeating: 0, count: 40)
            let length = withVaList([value]) { arguments in
                vsnprintf(&buffer, buffer.count, "%.17g", arguments)
            }
            buffer.withUnsafeBytes { raw in
                output.append(contentsOf: raw.prefix(Int(max(0, min(length, 39)))))
            }
        }
    }
}
