import Foundation

/// One value of a property list, in any of its containers (XML, binary, keyed archive).
///
/// The cases mirror the object types of Apple's property-list formats. Three of them exist only in
/// binary property lists: ``set(_:)``, ``uid(_:)`` (written to XML as a `CF$UID` dictionary, as
/// Apple does) and ``null`` (which XML cannot spell: the XML writer refuses it).
///
/// Equality follows Apple's: dictionaries compare without regard to key order, reals compare by
/// their exact bits (so `nan == nan`, and a 32-bit real is not equal to a 64-bit one).
public enum PropertyListValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer: any `Int64`, and `UInt64` values above `Int64.max`.
    case integer(PropertyListInteger)
    /// A floating-point number, remembering whether a binary plist stored it in 32 or 64 bits.
    case real(PropertyListReal)
    /// A boolean.
    case boolean(Bool)
    /// A date. Property lists store seconds since 2001-01-01 00:00:00 UTC.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list of values.
    case array([PropertyListValue])
    /// A set (binary property lists only). Kept in the order it was read.
    case set([PropertyListValue])
    /// A dictionary with string keys that keeps the order of its keys.
    case dictionary(PropertyListDictionary)
    /// A keyed-archive object reference (`CF$UID`).
    case uid(UInt64)
    /// The null object of binary property lists (marker `0x00`), which CoreFoundation reads as
    /// `kCFNull`. It has no XML spelling: ``PropertyListWriter`` refuses it in XML output, naming
    /// its key path, and keeps it in binary output.
    case null
}

extension PropertyListValue {
    /// The short name of the value's type, as `resumetool` prints it (`string`, `integer`, …).
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        case .uid: "uid"
        case .null: "null"
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer as `Int64`, if this is an integer that fits.
    public var int64Value: Int64? {
        if case .integer(let value) = self { return value.int64Value }
        return nil
    }

    /// The number as a `Double`, if this is a real or an integer.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): value.value
        case .integer(let value): value.doubleValue
        default: nil
        }
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The date, if this is a date.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, if this is a dictionary.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The object reference, if this is a UID.
    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value.
    public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    /// Creates a 64-bit real value.
    public init(floatLiteral value: Double) { self = .real(PropertyListReal(value)) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    /// Creates an array value.
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary value with the keys in the order written. A repeated key keeps its
    /// first position and its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        var dictionary = PropertyListDictionary()
        for (key, value) in elements { dictionary[key] = value }
        self = .dictionary(dictionary)
    }
}
