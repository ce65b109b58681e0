import Foundation

/// One decoded value of a keyed archive: the object graph under a UID, turned into a tree.
///
/// Foundation classes that resume data uses get their own cases; objects of any other class stay
/// as ``object(_:)`` with their class chain and raw fields, so nothing is lost and nothing unknown
/// is an error. Dictionaries keep their key order (header fields are printed in it).
///
/// Collection and string classes are not remembered: encoding writes dictionaries as
/// `NSMutableDictionary` and arrays as `NSMutableArray`, as Apple's writer does for resume data,
/// and strings inline.
public enum ArchivedValue: Sendable, Hashable {
    /// nil (UID 0, the `$null` object).
    case null
    /// A string: inline, or `NSString`/`NSMutableString` (`NS.string`, `NS.bytes`).
    case string(String)
    /// An integer stored inline (an `NSNumber`).
    case integer(PropertyListInteger)
    /// A real stored inline (an `NSNumber`).
    case real(PropertyListReal)
    /// A boolean stored inline (an `NSNumber`).
    case boolean(Bool)
    /// Bytes: inline, or `NSData`/`NSMutableData` (`NS.data`, `NS.bytes`).
    case data(Data)
    /// An `NSDate` (`NS.time`, seconds since 2001-01-01) or an inline date.
    case date(Date)
    /// An `NSArray`/`NSMutableArray` (`NS.objects`).
    case array([ArchivedValue])
    /// An `NSDictionary`/`NSMutableDictionary` with string keys, in archive order.
    case dictionary([DictionaryEntry])
    /// An `NSDictionary`/`NSMutableDictionary` with a key that is not a string (a number, as in
    /// nsurlsessiond's `tasks.plist`): a valid archive, but no property-list dictionary, whose
    /// keys are strings. Every key is kept as decoded, in archive order.
    case objectKeyedDictionary([ArchivedPair])
    /// An `NSURL` (`NS.relative` against `NS.base`).
    case url(ArchivedURL)
    /// An object of a class this library does not interpret, kept raw.
    case object(ArchivedObject)

    /// One key and value of a ``dictionary(_:)``.
    public typealias DictionaryEntry = ArchivedEntry<ArchivedValue>
}

extension ArchivedValue {
    /// The value a plain property-list value stands for: dictionaries and arrays become
    /// ``dictionary(_:)`` and ``array(_:)``, the rest maps one to one.
    /// - Throws: `KeyedArchiveError.Code.unrepresentable` for sets, UIDs and null objects, naming
    ///   the key path.
    init(plain value: PropertyListValue) throws {
        self = try Self.fromPlain(value, keyPath: "")
    }

    /// The same scalar (string, number, boolean, data, date) as an archived value; nil for a
    /// container, a UID or null, which an archive spells otherwise.
    static func scalar(_ value: PropertyListValue) -> ArchivedValue? {
        switch value {
        case .string(let string): .string(string)
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .boolean(let bool): .boolean(bool)
        case .data(let data): .data(data)
        case .date(let date): .date(date)
        case .array, .dictionary, .set, .uid, .null: nil
        }
    }

    static func fromPlain(_ value: PropertyListValue, keyPath: String) throws -> ArchivedValue {
        if let scalar = scalar(value) { return scalar }
        switch value {
        case .string, .integer, .real, .boolean, .data, .date:
            preconditionFailure("a scalar is mapped above")
        case .array(let elements):
            return .array(try elements.enumerated().map { try fromPlain($1, keyPath: "\(keyPath)[\($0)]") })
        case .dictionary(let dictionary):
            return .dictionary(try dictionary.map {
                DictionaryEntry(key: $0.key, value: try fromPlain($0.value, keyPath: Self.join(keyPath, $0.key)))
            })
        case .set:
            throw KeyedArchiveError(.unrepresentable, "a set has no archived form here", keyPath: keyPath)
        case .uid(let uid):
            throw KeyedArchiveError(.unrepresentable, "UID \(uid) is not a plain value", keyPath: keyPath)
        case .null:
            // An archive spells nil as UID 0, never as a binary null object.
            throw KeyedArchiveError(.unrepresentable, "a null object has no archived form here", keyPath: keyPath)
        }
    }

    /// The value as a plain property list, for values that have one.
    /// - Throws: `KeyedArchiveError.Code.unrepresentable` for nil, URLs and raw objects,
    ///   naming the key path.
    func plainValue() throws -> PropertyListValue {
        try plainValue(keyPath: "")
    }

    func plainValue(keyPath: String) throws -> PropertyListValue {
        switch self {
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .boolean(let bool): return .boolean(bool)
        case .data(let data): return .data(data)
        case .date(let date): return .date(date)
        case .array(let elements):
            return .array(try elements.enumerated().map { try $1.plainValue(keyPath: "\(keyPath)[\($0)]") })
        case .dictionary(let entries):
            var dictionary = PropertyListDictionary()
            for entry in entries {
                let path = Self.join(keyPath, entry.key)
                guard dictionary.updateValue(try entry.value.plainValue(keyPath: path), forKey: entry.key) == nil else {
                    throw KeyedArchiveError(.unrepresentable, "key \"\(entry.key)\" appears twice", keyPath: keyPath)
                }
            }
            return .dictionary(dictionary)
        case .objectKeyedDictionary(let pairs):
            throw KeyedArchiveError(.unrepresentable, "a dictionary with \(Self.describeKeys(of: pairs)) has no property-list form", keyPath: keyPath)
        case .null:
            throw KeyedArchiveError(.unrepresentable, "nil has no property-list form", keyPath: keyPath)
        case .url(let url):
            throw KeyedArchiveError(.unrepresentable, "NSURL \(url.absoluteString) has no property-list form", keyPath: keyPath)
        case .object(let object):
            throw KeyedArchiveError(.unrepresentable, "object of class \(object.className) has no property-list form", keyPath: keyPath)
        }
    }

    /// `keys that are not strings (93, 94, 95, …)`: the first three such keys, for a message.
    package static func describeKeys(of pairs: [ArchivedPair]) -> String {
        let others = pairs.filter { $0.key.stringValue == nil }
        let shown = others.prefix(3).map(\.key.description).joined(separator: ", ")
        return "keys that are not strings (\(shown)\(others.count > 3 ? ", …" : ""))"
    }

    package static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: PropertyListInteger? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The URL, if this is an `NSURL`.
    public var urlValue: ArchivedURL? {
        if case .url(let value) = self { return value }
        return nil
    }

    /// What kind of value this is, for a message: `a string`, `an NSURL`, `an NSURLRequest`.
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real"
        case .boolean: "a boolean"
        case .data: "data"
        case .date: "a date"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .objectKeyedDictionary: "a dictionary with keys that are not strings"
        case .url: "an NSURL"
        case .object(let object): "an \(object.className)"
        }
    }

    /// The entries, if this is a dictionary.
    public var dictionaryEntries: [DictionaryEntry]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// Whether this is nil.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension ArchivedValue: CustomStringConvertible {
    /// A compact one-line rendering for people: `nil`, `"text"`, `60.0`, `<3 bytes>`, `{k = v}`;
    /// a date in whole seconds, `2015-04-20T08:05:49Z`, or for a date outside years 1-9999 (a
    /// binary plist can hold NaN or 1e300) `1e+300 seconds since 2001-01-01 (out of range)`.
    public var description: String {
        switch self {
        case .null: "nil"
        case .string(let string): "\"\(string)\""
        case .integer(let integer): integer.description
        case .real(let real): real.description
        case .boolean(let bool): bool ? "true" : "false"
        case .data(let data): "<\(data.count) bytes>"
        case .date(let date): ISO8601DateText.text(date, fractionalSeconds: false)
        case .array(let elements): "(" + elements.map(\.description).joined(separator: ", ") + ")"
        case .dictionary(let entries): "{" + entries.map { "\($0.key) = \($0.value)" }.joined(separator: "; ") + "}"
        case .objectKeyedDictionary(let pairs): "{" + pairs.map { "\($0.key) = \($0.value)" }.joined(separator: "; ") + "}"
        case .url(let url): "<\(url.absoluteString)>"
        case .object(let object): object.description
        }
    }
}
