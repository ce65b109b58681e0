import Foundation
import ResumeDataCodec

/// How `plist convert --to json` spells property-list values in JSON: data as base64, dates as
/// ISO 8601, UIDs as `{"CF$UID": n}` (as in XML plists), sets as arrays.
enum PropertyListJSON {
    static func json(for value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .number(number.description)
        case .real(let real): .real(real.value)
        case .boolean(let flag): .bool(flag)
        case .date(let date): .string(DateText.iso8601(date))
        case .data(let bytes): .string(bytes.base64EncodedString())
        case .array(let items), .set(let items): .array(items.map(json(for:)))
        case .dictionary(let dictionary): .object(dictionary.map { ($0.key, json(for: $0.value)) })
        case .uid(let reference): .object([("CF$UID", .integer(reference))])
        }
    }
}
