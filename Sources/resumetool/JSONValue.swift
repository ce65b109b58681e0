import Foundation

/// A JSON document built in memory and printed with keys in the order they were added.
///
/// Written by hand because Foundation's `JSONSerialization` on Linux neither keeps key order
/// (headers and resume keys must print in their real order) nor prints integers above
/// `Int64.max` exactly; the encoder of `Codable` has the same limits.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number already spelled as JSON (integers exactly, reals shortest round-trip).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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

    static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// JSON has no NaN or infinity: those print as strings, as Python's `json` module refuses to
    /// and jq prints them.
    static func real(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .string(value.isNaN ? "nan" : (value > 0 ? "+infinity" : "-infinity")) }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(format: "%.1f", value)) }
        return .number("\(value)")
    }

    static func optionalString(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// Pretty-printed with two-space indentation and a final newline.
    func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out.append("\n")
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out.append("null")
        case .bool(let value): out.append(value ? "true" : "false")
        case .number(let text): out.append(text)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out.append("[]"); return }
            out.append("[\n")
            for (index, item) in items.enumerated() {
                out.append(String(repeating: "  ", count: indent + 1))
                item.write(to: &out, indent: indent + 1)
                out.append(index == items.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: "  ", count: indent) + "]")
        case .object(let members):
            guard !members.isEmpty else { out.append("{}"); return }
            out.append("{\n")
            for (index, (key, value)) in members.enumerated() {
                out.append(String(repeating: "  ", count: indent + 1))
                Self.writeString(key, to: &out)
                out.append(": ")
                value.write(to: &out, indent: indent + 1)
                out.append(index == members.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: "  ", count: indent) + "}")
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20:
                out.append("\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }
}
