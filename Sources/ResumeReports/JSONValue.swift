import Foundation
import ResumeDataCodec

/// A JSON document built in memory and printed with keys in the order they were added.
///
/// Written by hand because Foundation's `JSONSerialization` on Linux neither keeps key order
/// (headers and resume keys must print in their real order) nor prints integers above
/// `Int64.max` exactly; the encoder of `Codable` has the same limits.
package enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number already spelled as JSON (integers exactly, reals shortest round-trip).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    package static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// JSON has no NaN or infinity: those print as strings, as Python's `json` module refuses to
    /// and jq prints them.
    static func real(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .string(value.isNaN ? "nan" : (value > 0 ? "+infinity" : "-infinity")) }
        // Integral values keep a ".0" so they read back as reals (`String(format:)` costs more
        // than everything else in a report).
        if value == value.rounded(), abs(value) < 1e15 { return .number(value == 0 && value.sign == .minus ? "-0.0" : "\(Int64(value)).0") }
        return .number("\(value)")
    }

    package static func optionalString(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// Pretty-printed with two-space indentation and a final newline.
    package func rendered() -> String {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value as UTF-8, pretty-printed as if it stood `indent` levels deep (its first
    /// line is not indented, its closing bracket is). Bytes rather than a `String`: appending
    /// scalar by scalar to a `String` was a tenth of `inspect`'s time over thousands of blobs.
    /// On one line, no spaces: for JSON Lines (`download --json`).
    package func writeCompact(to out: inout [UInt8]) {
        switch self {
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            self.write(to: &out, indent: 0)
        }
    }

    package func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(contentsOf: "[\n".utf8)
            for (index, item) in items.enumerated() {
                Self.writeIndent(indent + 1, to: &out)
                item.write(to: &out, indent: indent + 1)
                out.append(contentsOf: (index == items.count - 1 ? "\n" : ",\n").utf8)
            }
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (index, (key, value)) in members.enumerated() {
                Self.writeIndent(indent + 1, to: &out)
                Self.writeString(key, to: &out)
                out.append(contentsOf: ": ".utf8)
                value.write(to: &out, indent: indent + 1)
                out.append(contentsOf: (index == members.count - 1 ? "\n" : ",\n").utf8)
            }
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    package static func writeIndent(_ level: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        // Runs of bytes that need no escape are copied whole: byte by byte, this was the
        // largest single cost of `inspect --json` (long base64 bodies and header values).
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                appendEscape(of: byte, to: &out)
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            // Every byte of a multi-byte UTF-8 sequence is 0x80 or above, so control
            // characters are exactly the bytes below 0x20.
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        }
    }
}
