import Foundation
import ResumeDataCodec

/// The indented tree `resumetool plist print` shows people: one line a value, with its type,
/// the size of containers and data, and UIDs as `UID(7)`.
public enum PropertyListTree {
    /// Data longer than this shows only its first bytes in hex.
    static let dataPreviewBytes = 16

    /// `value` as `resumetool plist print` prints it.
    public static func render(_ value: PropertyListValue) -> String {
        var out = ""
        append(value, label: nil, indent: 0, to: &out)
        return out
    }

    private static func append(_ value: PropertyListValue, label: String?, indent: Int, to out: inout String) {
        out.append(String(repeating: "  ", count: indent))
        if let label { out.append(label + ": ") }
        out.append(summary(of: value))
        out.append("\n")
        switch value {
        case .array(let items), .set(let items):
            for (index, item) in items.enumerated() {
                append(item, label: "[\(index)]", indent: indent + 1, to: &out)
            }
        case .dictionary(let dictionary):
            for (key, item) in dictionary {
                append(item, label: quotedIfNeeded(key), indent: indent + 1, to: &out)
            }
        default:
            break
        }
    }

    static func summary(of value: PropertyListValue) -> String {
        switch value {
        case .string(let text): "string \(quoted(text))"
        case .integer(let number): "integer \(number)"
        case .real(let real): "real \(real.value)" + (real.isSinglePrecision ? " (32-bit)" : "")
        case .boolean(let flag): "boolean \(flag)"
        case .date(let date): "date \(DateText.text(date))"
        case .data(let bytes): "data (\(count(bytes.count, "byte")))" + (bytes.isEmpty ? "" : " " + hexPreview(bytes))
        case .array(let items): "array (\(count(items.count, "item")))"
        case .set(let items): "set (\(count(items.count, "item")))"
        case .dictionary(let dictionary): "dictionary (\(count(dictionary.count, "entry", plural: "entries")))"
        case .uid(let reference): "UID(\(reference))"
        case .null: "null"
        }
    }

    private static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    private static func hexPreview(_ bytes: Data) -> String {
        let shown = bytes.prefix(dataPreviewBytes).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        return "<" + shown + (bytes.count > dataPreviewBytes ? "…" : "") + ">"
    }

    /// A key printed bare when it is plain, quoted when it has spaces, is empty, or could be
    /// mistaken for the tree's own punctuation.
    static func quotedIfNeeded(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "$_-.".unicodeScalars.contains(scalar)
        }
        return plain ? key : quoted(key)
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case _ where VisibleText.isEscaped(scalar): out.append(VisibleText.escape(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
