import Foundation

/// Turns the object graph of a ``KeyedArchive`` into an ``ArchivedValue`` tree.
///
/// Every UID is checked against `$objects`; the objects being decoded are kept on a stack, so an
/// object that contains itself is reported instead of recursing forever; the stack's height and
/// the number of values produced are capped by ``KeyedArchiveOptions``.
///
/// Key paths are taken as autoclosures and spelled only when an error is thrown: every object of
/// every request archive passes through here, and interpolating paths up front took longer than
/// the decoding itself.
struct KeyedArchiveDecoder {
    let archive: KeyedArchive
    /// The UIDs being decoded, outermost first. An array, not a set: its height is capped by the
    /// depth limit and is a handful in practice, where a linear search beats hashing.
    private var inProgress: [UInt64] = []
    private var valueCount = 0

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    /// Decodes the object a UID points at; `keyPath` names where the UID was found.
    mutating func decode(uid: UInt64, keyPath: @autoclosure () -> String) throws -> ArchivedValue {
        valueCount += 1
        guard valueCount <= archive.options.maximumValueCount else {
            throw KeyedArchiveError(.tooManyValues, "the archive expands to more than \(archive.options.maximumValueCount) values", keyPath: keyPath())
        }
        if uid == 0 { return .null }
        let object = try archive.resolve(uid, keyPath: keyPath())
        if let scalar = ArchivedValue.scalar(object) { return scalar }
        switch object {
        case .string, .integer, .real, .boolean, .data, .date:
            preconditionFailure("a scalar is mapped above")
        case .array, .set, .uid, .null:
            throw KeyedArchiveError(.unexpectedType, "\(KeyedArchive.show(object)) is not an archived object", keyPath: "$objects[\(uid)]")
        case .dictionary(let dictionary):
            try enter(uid, keyPath: keyPath())
            defer { inProgress.removeLast() }
            return try decodeObject(dictionary, uid: uid)
        }
    }

    /// Decodes the object dictionary at a UID with every field kept raw, whatever its class.
    mutating func decodeRawObject(uid: UInt64) throws -> ArchivedObject {
        func path() -> String { "$objects[\(uid)]" }
        guard case .dictionary(let dictionary) = try archive.resolve(uid, keyPath: path()) else {
            throw KeyedArchiveError(.unexpectedType, "\(KeyedArchive.show(archive.objects[Int(uid)])) is not an object dictionary", keyPath: path())
        }
        try enter(uid, keyPath: path())
        defer { inProgress.removeLast() }
        let objectClass = try archive.objectClass(of: dictionary, at: uid)
        return try rawObject(dictionary, uid: uid, objectClass: objectClass)
    }

    private mutating func enter(_ uid: UInt64, keyPath: @autoclosure () -> String) throws {
        guard !inProgress.contains(uid) else {
            throw KeyedArchiveError(.cycle, "UID \(uid) refers back to $objects[\(uid)], which contains it (cycle)", keyPath: keyPath())
        }
        guard inProgress.count < archive.options.effectiveMaximumDepth else {
            throw KeyedArchiveError(.tooDeep, "objects nested deeper than \(archive.options.effectiveMaximumDepth)", keyPath: keyPath())
        }
        inProgress.append(uid)
    }

    private mutating func decodeObject(_ dictionary: PropertyListDictionary, uid: UInt64) throws -> ArchivedValue {
        let objectClass = try archive.objectClass(of: dictionary, at: uid)
        func path() -> String { "$objects[\(uid)]" }
        switch objectClass.name {
        case "NSDictionary", "NSMutableDictionary":
            let keys = try uidArray(dictionary, "NS.keys", path: path())
            let values = try uidArray(dictionary, "NS.objects", path: path())
            guard keys.count == values.count else {
                throw KeyedArchiveError(.lengthMismatch, "NS.keys has \(keys.count) entries but NS.objects has \(values.count)", keyPath: path())
            }
            var entries: [ArchivedValue.DictionaryEntry] = []
            entries.reserveCapacity(keys.count)
            // Filled only once a key is not a string (nsurlsessiond keys tasks by NSNumber): the
            // string-keyed dictionaries of every resume blob never pay for it.
            var pairs: [ArchivedPair]?
            for index in keys.indices {
                let key = try decode(uid: keys[index], keyPath: "\(path()).NS.keys[\(index)]")
                let value = try decode(uid: values[index], keyPath: "\(path()).NS.objects[\(index)]")
                if pairs == nil, case .string(let name) = key {
                    entries.append(.init(key: name, value: value))
                    continue
                }
                if pairs == nil { pairs = entries.map { ArchivedPair(key: .string($0.key), value: $0.value) } }
                pairs?.append(ArchivedPair(key: key, value: value))
            }
            if let pairs { return .objectKeyedDictionary(pairs) }
            return .dictionary(entries)
        case "NSArray", "NSMutableArray":
            let elements = try uidArray(dictionary, "NS.objects", path: path())
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try decode(uid: element, keyPath: "\(path()).NS.objects[\(index)]"))
            }
            return .array(values)
        case "NSString", "NSMutableString":
            if let string = dictionary["NS.string"] {
                return .string(try stringField(string, keyPath: "\(path()).NS.string"))
            }
            let bytes = try dataField(dictionary, "NS.bytes", path: path())
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw KeyedArchiveError(.unexpectedType, "NS.bytes is not UTF-8", keyPath: "\(path()).NS.bytes")
            }
            return .string(string)
        case "NSData", "NSMutableData":
            let key = dictionary["NS.data"] != nil ? "NS.data" : "NS.bytes"
            return .data(try dataField(dictionary, key, path: path()))
        case "NSURL":
            guard let relative = dictionary["NS.relative"] else {
                throw KeyedArchiveError(.missingKey, "NSURL has no NS.relative", keyPath: path())
            }
            let relativeString = try stringField(relative, keyPath: "\(path()).NS.relative")
            var baseString: String?
            if let base = dictionary["NS.base"] {
                func basePath() -> String { "\(path()).NS.base" }
                guard case .uid(let baseUID) = base else {
                    throw KeyedArchiveError(.unexpectedType, "NS.base is \(KeyedArchive.show(base)), not a UID", keyPath: basePath())
                }
                switch try decode(uid: baseUID, keyPath: basePath()) {
                case .null: baseString = nil
                case .url(let baseURL): baseString = baseURL.absoluteString
                case let other:
                    throw KeyedArchiveError(.unexpectedType, "NS.base is \(other), not an NSURL", keyPath: basePath())
                }
            }
            return .url(ArchivedURL(relativeString: relativeString, baseString: baseString))
        case "NSDate":
            guard let time = dictionary["NS.time"], let seconds = time.doubleValue else {
                throw KeyedArchiveError(.missingKey, "NSDate has no numeric NS.time", keyPath: path())
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            return .object(try rawObject(dictionary, uid: uid, objectClass: objectClass))
        }
    }

    private mutating func rawObject(_ dictionary: PropertyListDictionary, uid: UInt64, objectClass: (name: String, chain: [String])) throws -> ArchivedObject {
        var fields: [ArchivedObject.Field] = []
        fields.reserveCapacity(dictionary.count)
        for (key, value) in dictionary where key != "$class" {
            fields.append(.init(key: key, value: try fieldValue(value, keyPath: "$objects[\(uid)].\(key)")))
        }
        return ArchivedObject(className: objectClass.name, classChain: objectClass.chain, fields: fields)
    }

    /// A field as stored: UIDs decoded, inline values kept.
    mutating func fieldValue(_ value: PropertyListValue, keyPath: @autoclosure () -> String) throws -> ArchivedObject.FieldValue {
        switch value {
        case .uid(let uid):
            return .reference(try decode(uid: uid, keyPath: keyPath()))
        case .array(let elements) where elements.contains(where: Self.containsUID):
            var fields: [ArchivedObject.FieldValue] = []
            for (index, element) in elements.enumerated() {
                fields.append(try fieldValue(element, keyPath: "\(keyPath())[\(index)]"))
            }
            return .array(fields)
        case .dictionary, .set:
            // NSKeyedArchiver only ever puts UIDs directly under a key or in an array of them.
            guard !Self.containsUID(value) else {
                throw KeyedArchiveError(.unexpectedType, "UIDs inside a \(value.typeName) are not supported", keyPath: keyPath())
            }
            return .inline(value)
        default:
            return .inline(value)
        }
    }

    static func containsUID(_ value: PropertyListValue) -> Bool {
        switch value {
        case .uid: true
        case .array(let elements), .set(let elements): elements.contains(where: containsUID)
        case .dictionary(let dictionary): dictionary.values.contains(where: containsUID)
        default: false
        }
    }

    private func uidArray(_ dictionary: PropertyListDictionary, _ key: String, path: @autoclosure () -> String) throws -> [UInt64] {
        guard let value = dictionary[key] else {
            throw KeyedArchiveError(.missingKey, "no \(key)", keyPath: path())
        }
        guard case .array(let elements) = value else {
            throw KeyedArchiveError(.unexpectedType, "\(key) is \(KeyedArchive.show(value)), not an array", keyPath: "\(path()).\(key)")
        }
        var uids: [UInt64] = []
        uids.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .uid(let uid) = element else {
                throw KeyedArchiveError(.unexpectedType, "\(KeyedArchive.show(element)) is not a UID", keyPath: "\(path()).\(key)[\(index)]")
            }
            uids.append(uid)
        }
        return uids
    }

    /// A string stored inline or behind a UID.
    private mutating func stringField(_ value: PropertyListValue, keyPath: @autoclosure () -> String) throws -> String {
        switch value {
        case .string(let string): return string
        case .uid(let uid):
            guard case .string(let string) = try decode(uid: uid, keyPath: keyPath()) else {
                throw KeyedArchiveError(.unexpectedType, "$objects[\(uid)] is not a string", keyPath: keyPath())
            }
            return string
        default:
            throw KeyedArchiveError(.unexpectedType, "\(KeyedArchive.show(value)) is not a string", keyPath: keyPath())
        }
    }

    /// Bytes stored inline or behind a UID.
    private mutating func dataField(_ dictionary: PropertyListDictionary, _ key: String, path: @autoclosure () -> String) throws -> Data {
        func keyPath() -> String { "\(path()).\(key)" }
        switch dictionary[key] {
        case .data(let data)?: return data
        case .uid(let uid)?:
            guard case .data(let data) = try decode(uid: uid, keyPath: keyPath()) else {
                throw KeyedArchiveError(.unexpectedType, "$objects[\(uid)] is not data", keyPath: keyPath())
            }
            return data
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "\(KeyedArchive.show(other)) is not data", keyPath: keyPath())
        case nil:
            throw KeyedArchiveError(.missingKey, "no \(key)", keyPath: path())
        }
    }
}
