import Foundation
import ResumeDataCodec

/// How `plist convert --to json` spells property-list values in JSON: data as base64, dates as
/// ISO 8601, UIDs as `{"CF$UID": n}` (as in XML plists), sets as arrays, a binary plist's null
/// object as `null`.
///
/// JSON cannot spell every value a binary plist holds: a date with no calendar spelling (NaN,
/// infinity, 1e300 s) is written as its plain number of seconds since 2001-01-01, and NaN or an
/// infinite real as a string (see ``JSONValue/real(_:)``). Each such value adds a note naming
/// its key path, for the command to print as a warning.
public enum PropertyListJSON {
    /// `value` as `resumetool plist convert --to json` writes it, and a note for each value JSON
    /// has no spelling for (data as base64, a date out of range, a UID).
    public static func text(for value: PropertyListValue) -> (json: String, notes: [String]) {
        var notes: [String] = []
        let json = json(for: value, path: "", notes: &notes).rendered()
        return (json, notes)
    }

    package static func json(for value: PropertyListValue) -> JSONValue {
        var notes: [String] = []
        return json(for: value, path: "", notes: &notes)
    }

    package static func json(for value: PropertyListValue, path: String, notes: inout [String]) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .number(number.description)
        case .real(let real):
            if !real.value.isFinite { notes.append("\(path.isEmpty ? "top" : path): real \(real.value) written as a string") }
            return .real(real.value)
        case .boolean(let flag): return .bool(flag)
        case .date(let date):
            if !ISO8601DateText.isSpellable(date) {
                let spelling = date.timeIntervalSinceReferenceDate.isFinite ? "a number" : "a string"
                notes.append("\(path.isEmpty ? "top" : path): date \(DateText.text(date)) written as \(spelling)")
            }
            return DateText.json(date)
        case .data(let bytes): return .string(bytes.base64EncodedString())
        case .array(let items), .set(let items):
            var out: [JSONValue] = []
            out.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { out.append(json(for: item, path: "\(path)[\(index)]", notes: &notes)) }
            return .array(out)
        case .dictionary(let dictionary):
            return .object(dictionary.map { ($0.key, json(for: $0.value, path: path.isEmpty ? $0.key : "\(path).\($0.key)", notes: &notes)) })
        case .uid(let reference): return .object([("CF$UID", .integer(reference))])
        case .null: return .null
        }
    }
}
