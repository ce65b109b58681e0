import Foundation

/// Lays out `$objects` the way Apple's `NSKeyedArchiver` does, so our archives look like a
/// device's: `$null` first, then objects in the order they are first met, depth first; an
/// object's slot is taken when it is met, its fields are encoded, and only then is its class
/// description appended (if the class is new). Equal strings, numbers and booleans share one
/// slot, as Apple's do (it shares tagged-pointer numbers and uniqued strings).
struct KeyedArchiveEncoder {
    private(set) var objects: [PropertyListValue] = [.string("$null")]
    private var sharedValues: [PropertyListValue: UInt64] = [:]
    private var classUIDs: [[String]: UInt64] = [:]

    static let mutableDictionaryChain = ["NSMutableDictionary", "NSDictionary", "NSObject"]
    static let mutableArrayChain = ["NSMutableArray", "NSArray", "NSObject"]

    mutating func encode(_ value: ArchivedValue, keyPath: String) throws -> UInt64 {
        switch value {
        case .null: return 0
        case .string(let string): return shared(.string(string))
        case .integer(let integer): return shared(.integer(integer))
        case .real(let real): return shared(.real(real))
        case .boolean(let bool): return shared(.boolean(bool))
        case .data(let data):
            // NSData is not uniqued by Apple's writer: each occurrence gets its own slot.
            objects.append(.data(data))
            return UInt64(objects.count - 1)
        case .date(let date):
            return try encodeObject(className: "NSDate", chain: ["NSDate", "NSObject"]) { _ in
                ["NS.time": .real(PropertyListReal(date.timeIntervalSinceReferenceDate))]
            }
        case .array(let elements):
            return try encodeArray(elements, chain: Self.mutableArrayChain, keyPath: keyPath)
        case .dictionary(let entries):
            return try encodeDictionary(entries, chain: Self.mutableDictionaryChain, keyPath: keyPath)
        case .objectKeyedDictionary(let pairs):
            return try encodeObject(className: Self.mutableDictionaryChain[0], chain: Self.mutableDictionaryChain) { encoder in
                // Keys first, then values, as for string keys (and as Apple's writer lays them out).
                var keys: [PropertyListValue] = [], values: [PropertyListValue] = []
                for pair in pairs { keys.append(.uid(try encoder.encode(pair.key, keyPath: "\(keyPath).NS.keys[\(keys.count)]"))) }
                for pair in pairs { values.append(.uid(try encoder.encode(pair.value, keyPath: ArchivedValue.join(keyPath, pair.keyText)))) }
                return ["NS.keys": .array(keys), "NS.objects": .array(values)]
            }
        case .url(let url):
            return try encodeObject(className: "NSURL", chain: ["NSURL", "NSObject"]) { encoder in
                let base = try url.baseString.map {
                    try encoder.encode(.url(ArchivedURL(relativeString: $0)), keyPath: "\(keyPath).NS.base")
                } ?? 0
                let relative = try encoder.encode(.string(url.relativeString), keyPath: "\(keyPath).NS.relative")
                return ["NS.base": .uid(base), "NS.relative": .uid(relative)]
            }
        case .object(let object):
            return try encodeObject(object, keyPath: keyPath)
        }
    }

    mutating func encodeObject(_ object: ArchivedObject, keyPath: String) throws -> UInt64 {
        guard !object.fields.contains(where: { $0.key == "$class" }) else {
            throw KeyedArchiveError(.unrepresentable, "an object field may not be named $class", keyPath: keyPath)
        }
        let chain = object.classChain.isEmpty ? [object.className] : object.classChain
        return try encodeObject(className: object.className, chain: chain) { encoder in
            var dictionary = PropertyListDictionary()
            for field in object.fields {
                let encoded = try encoder.encode(field.value, keyPath: ArchivedValue.join(keyPath, field.key))
                guard dictionary.updateValue(encoded, forKey: field.key) == nil else {
                    throw KeyedArchiveError(.unrepresentable, "field \(field.key) appears twice", keyPath: keyPath)
                }
            }
            return dictionary
        }
    }

    mutating func encode(_ field: ArchivedObject.FieldValue, keyPath: String) throws -> PropertyListValue {
        switch field {
        case .inline(let value):
            guard !KeyedArchiveDecoder.containsUID(value) else {
                throw KeyedArchiveError(.unrepresentable, "an inline value may not hold UIDs", keyPath: keyPath)
            }
            return value
        case .reference(let value):
            return .uid(try encode(value, keyPath: keyPath))
        case .array(let elements):
            var encoded: [PropertyListValue] = []
            for (index, element) in elements.enumerated() {
                encoded.append(try encode(element, keyPath: "\(keyPath)[\(index)]"))
            }
            return .array(encoded)
        }
    }

    mutating func encodeDictionary(_ entries: [ArchivedValue.DictionaryEntry], chain: [String], keyPath: String) throws -> UInt64 {
        try encodeObject(className: chain.first ?? "NSMutableDictionary", chain: chain) { encoder in
            var seen = Set<String>()
            var keys: [PropertyListValue] = []
            for entry in entries {
                guard seen.insert(entry.key).inserted else {
                    throw KeyedArchiveError(.unrepresentable, "key \"\(entry.key)\" appears twice", keyPath: keyPath)
                }
                keys.append(.uid(encoder.shared(.string(entry.key))))
            }
            var values: [PropertyListValue] = []
            for entry in entries {
                values.append(.uid(try encoder.encode(entry.value, keyPath: ArchivedValue.join(keyPath, entry.key))))
            }
            return ["NS.keys": .array(keys), "NS.objects": .array(values)]
        }
    }

    private mutating func encodeArray(_ elements: [ArchivedValue], chain: [String], keyPath: String) throws -> UInt64 {
        try encodeObject(className: chain[0], chain: chain) { encoder in
            var values: [PropertyListValue] = []
            for (index, element) in elements.enumerated() {
                values.append(.uid(try encoder.encode(element, keyPath: "\(keyPath)[\(index)]")))
            }
            return ["NS.objects": .array(values)]
        }
    }

    /// Takes the object's slot, builds its fields (encoding what they refer to), then adds
    /// `$class`, appending the class description after the first instance's contents.
    private mutating func encodeObject(
        className: String,
        chain: [String],
        fields: (inout KeyedArchiveEncoder) throws -> PropertyListDictionary
    ) throws -> UInt64 {
        let index = objects.count
        objects.append(.string("$null"))
        var dictionary = try fields(&self)
        dictionary["$class"] = .uid(classUID(className: className, chain: chain))
        objects[index] = .dictionary(dictionary)
        return UInt64(index)
    }

    private mutating func classUID(className: String, chain: [String]) -> UInt64 {
        let key = [className] + chain
        if let uid = classUIDs[key] { return uid }
        objects.append(["$classname": .string(className), "$classes": .array(chain.map(PropertyListValue.string))])
        let uid = UInt64(objects.count - 1)
        classUIDs[key] = uid
        return uid
    }

    private mutating func shared(_ value: PropertyListValue) -> UInt64 {
        if let uid = sharedValues[value] { return uid }
        objects.append(value)
        let uid = UInt64(objects.count - 1)
        sharedValues[value] = uid
        return uid
    }
}

extension KeyedArchive {
    /// Archives a value the way Apple's `NSKeyedArchiver` lays it out (see ``KeyedArchive``):
    /// root at index 1, `$version` 100000, the given top key.
    /// - Throws: `KeyedArchiveError.Code.nullRoot` for a nil root, and
    ///   `KeyedArchiveError.Code.unrepresentable` for duplicate keys or UIDs in inline values.
    init(encoding root: ArchivedValue, topKey: String = KeyedArchive.rootObjectKey) throws {
        guard !root.isNull else {
            throw KeyedArchiveError(.nullRoot, "the root object is nil")
        }
        var encoder = KeyedArchiveEncoder()
        let rootUID = try encoder.encode(root, keyPath: "")
        self.init(encodedObjects: encoder.objects, rootUID: rootUID, topKey: topKey)
    }

    init(encodedObjects objects: [PropertyListValue], rootUID: UInt64, topKey: String) {
        self.archiver = Self.archiverName
        self.version = PropertyListInteger(Self.archiveVersion)
        self.topKey = topKey
        self.objects = objects
        self.rootUID = rootUID
        self.options = .default
    }

    /// The archive as a property list, keys in the order Apple's binary writer puts them.
    var propertyList: PropertyListValue {
        [
            "$version": .integer(version),
            "$objects": .array(objects),
            "$archiver": .string(archiver),
            "$top": .dictionary([topKey: .uid(rootUID)]),
        ]
    }

    /// The archive serialised as a property list; binary unless asked otherwise.
    /// - Throws: `KeyedArchiveError.Code.propertyList` wrapping the writer's error.
    func data(format: PropertyListFormat = .binary) throws -> Data {
        do {
            return try PropertyListWriter().write(propertyList, as: format)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(error)
        }
    }
}
