import Foundation

/// An `NSKeyedArchiver` archive: the property list `{ $archiver, $version, $top, $objects }`,
/// checked at the top level and decoded on demand into an ``ArchivedValue`` tree.
///
/// Creating one checks only the frame (archiver name, version, one top key holding a UID in
/// range and not nil, `$objects` starting with `"$null"` and within the object limit). Objects
/// are checked as they are read: ``decodeRoot()`` resolves UIDs with bounds, cycle, depth and
/// expansion checks and turns the graph into the tree.
///
/// ```swift
/// let archive = try KeyedArchive(data: bytes)
/// if case .dictionary(let entries) = try archive.decodeRoot() {
///     for entry in entries { print(entry.key, entry.value) }
/// }
/// ```
public struct KeyedArchive: Sendable, Hashable {
    /// The top key Apple's writer uses (the literal string, not the value of the Foundation
    /// constant of the same name).
    public static let rootObjectKey = "NSKeyedArchiveRootObjectKey"
    /// The top key Foundation's `NSKeyedArchiveRootObjectKey` constant stands for, used by
    /// secure coding and by the legacy request layout.
    static let rootKey = "root"
    /// The `$archiver` value Apple writes.
    static let archiverName = "NSKeyedArchiver"
    /// The `$version` value Apple writes.
    static let archiveVersion: Int64 = 100_000

    /// `$archiver`.
    package var archiver: String
    /// `$version`.
    package var version: PropertyListInteger
    /// The single key of `$top`: `NSKeyedArchiveRootObjectKey`, `root`, or another.
    public var topKey: String
    /// `$objects`, index 0 being `"$null"`.
    package var objects: [PropertyListValue]
    /// The UID `$top` holds: the index of the root object.
    package var rootUID: UInt64
    /// The limits applied when decoding.
    var options: KeyedArchiveOptions

    /// Checks the frame of an archive held as a property-list value.
    /// - Throws: ``KeyedArchiveError`` naming the key at fault.
    public init(_ propertyList: PropertyListValue, options: KeyedArchiveOptions = .default) throws {
        guard case .dictionary(let top) = propertyList else {
            throw KeyedArchiveError(.notAnArchive, "the property list is a \(propertyList.typeName), not a dictionary")
        }
        guard let archiverValue = top["$archiver"] else {
            throw KeyedArchiveError(.notAnArchive, "no $archiver key: not a keyed archive")
        }
        guard case .string(let archiver) = archiverValue, archiver == Self.archiverName else {
            throw KeyedArchiveError(.notAnArchive, "$archiver is \(Self.show(archiverValue)), not \"\(Self.archiverName)\"", keyPath: "$archiver")
        }
        guard case .integer(let version)? = top["$version"] else {
            throw KeyedArchiveError(.notAnArchive, "$version is \(top["$version"].map(Self.show) ?? "missing"), not an integer", keyPath: "$version")
        }
        guard case .dictionary(let topEntries)? = top["$top"] else {
            throw KeyedArchiveError(.invalidTop, "$top is \(top["$top"].map(Self.show) ?? "missing"), not a dictionary", keyPath: "$top")
        }
        guard topEntries.count == 1, let topEntry = topEntries.first else {
            throw KeyedArchiveError(.invalidTop, "$top has \(topEntries.count) keys, expected one", keyPath: "$top")
        }
        let (topKey, rootValue) = topEntry
        guard case .array(let objects)? = top["$objects"] else {
            throw KeyedArchiveError(.invalidObjects, "$objects is \(top["$objects"].map(Self.show) ?? "missing"), not an array", keyPath: "$objects")
        }
        // Checked before anything walks the array, so a huge archive is refused in constant time.
        guard objects.count <= options.maximumObjectCount else {
            throw KeyedArchiveError(.tooManyObjects, "\(objects.count) objects, more than the limit of \(options.maximumObjectCount)", keyPath: "$objects")
        }
        guard objects.first == .string("$null") else {
            throw KeyedArchiveError(.invalidObjects, "$objects[0] is \(objects.first.map(Self.show) ?? "missing"), not \"$null\"", keyPath: "$objects[0]")
        }
        let topPath = "$top.\(topKey)"
        guard case .uid(let rootUID) = rootValue else {
            throw KeyedArchiveError(.invalidTop, "the root is \(Self.show(rootValue)), not a UID", keyPath: topPath)
        }
        guard rootUID < UInt64(objects.count) else {
            throw KeyedArchiveError(.uidOutOfRange, "UID \(rootUID) out of range (\(objects.count) objects)", keyPath: topPath)
        }
        guard rootUID != 0 else {
            throw KeyedArchiveError(.nullRoot, "the root object is $null", keyPath: topPath)
        }
        self.archiver = archiver
        self.version = version
        self.topKey = topKey
        self.objects = objects
        self.rootUID = rootUID
        self.options = options
    }

    /// Reads a keyed archive from bytes in either property-list format.
    /// - Throws: ``KeyedArchiveError``; a property-list error is wrapped with code
    ///   `KeyedArchiveError.Code.propertyList`, keeping its position.
    public init(data: Data, options: KeyedArchiveOptions = .default) throws {
        let value: PropertyListValue
        do {
            value = try PropertyListReader(options: options.propertyListOptions).read(data).value
        } catch let error as PropertyListError {
            throw KeyedArchiveError(error)
        }
        try self.init(value, options: options)
    }

    /// The object a UID points at, raw.
    /// - Parameter keyPath: where the UID was found, for the error message.
    /// - Throws: `KeyedArchiveError.Code.uidOutOfRange`.
    package func object(at uid: UInt64, keyPath: String? = nil) throws -> PropertyListValue {
        try resolve(uid, keyPath: keyPath)
    }

    /// ``object(at:keyPath:)`` for the decoder, which spells the key path only for an error.
    func resolve(_ uid: UInt64, keyPath: @autoclosure () -> String?) throws -> PropertyListValue {
        guard uid < UInt64(objects.count) else {
            throw KeyedArchiveError(.uidOutOfRange, "UID \(uid) out of range (\(objects.count) objects)", keyPath: keyPath())
        }
        return objects[Int(uid)]
    }

    /// The class of the object at a UID: `$classname` and `$classes` of the class description
    /// its `$class` points at.
    /// - Throws: ``KeyedArchiveError`` when the object is not an object dictionary, has no
    ///   `$class`, or the class description is malformed or loops.
    func objectClass(at uid: UInt64) throws -> (name: String, chain: [String]) {
        let path = "$objects[\(uid)]"
        guard case .dictionary(let dictionary) = try object(at: uid) else {
            throw KeyedArchiveError(.unexpectedType, "\(Self.show(objects[Int(uid)])) is not an object dictionary", keyPath: path)
        }
        return try objectClass(of: dictionary, at: uid)
    }

    func objectClass(of dictionary: PropertyListDictionary, at uid: UInt64) throws -> (name: String, chain: [String]) {
        // Key paths are spelled only when an error needs them: this runs for every object of
        // every archive, and building the strings up front was most of its time.
        func path() -> String { "$objects[\(uid)]" }
        func classPath() -> String { "$objects[\(uid)].$class" }
        guard let classValue = dictionary["$class"] else {
            if dictionary["$classname"] != nil {
                throw KeyedArchiveError(.invalidClass, "a class description is used as an object", keyPath: path())
            }
            throw KeyedArchiveError(.missingClass, "object has no $class", keyPath: path())
        }
        guard case .uid(let classUID) = classValue else {
            throw KeyedArchiveError(.invalidClass, "$class is \(Self.show(classValue)), not a UID", keyPath: classPath())
        }
        guard classUID != uid else {
            throw KeyedArchiveError(.classChainLoop, "the class of $objects[\(uid)] is the object itself", keyPath: classPath())
        }
        guard case .dictionary(let description) = try resolve(classUID, keyPath: classPath()) else {
            throw KeyedArchiveError(.invalidClass, "$class points at $objects[\(classUID)], \(Self.show(objects[Int(classUID)])), not a class description", keyPath: classPath())
        }
        func descriptionPath() -> String { "$objects[\(classUID)]" }
        guard case .string(let name)? = description["$classname"] else {
            if description["$class"] != nil {
                throw KeyedArchiveError(.classChainLoop, "$class points at $objects[\(classUID)], an object with a class of its own, not a class description", keyPath: classPath())
            }
            throw KeyedArchiveError(.invalidClass, "class description has no $classname string", keyPath: descriptionPath())
        }
        var chain: [String] = []
        if let classes = description["$classes"] {
            guard case .array(let names) = classes else {
                throw KeyedArchiveError(.invalidClass, "$classes is \(Self.show(classes)), not an array", keyPath: "\(descriptionPath()).$classes")
            }
            for (index, nameValue) in names.enumerated() {
                guard case .string(let superclass) = nameValue else {
                    throw KeyedArchiveError(.invalidClass, "\(Self.show(nameValue)) is not a class name", keyPath: "\(descriptionPath()).$classes[\(index)]")
                }
                // A chain is a handful of names: a linear search beats hashing them.
                guard !chain.contains(superclass) else {
                    throw KeyedArchiveError(.classChainLoop, "class chain names \(superclass) twice: \(names.compactMap(\.stringValue).joined(separator: " → "))", keyPath: "\(descriptionPath()).$classes[\(index)]")
                }
                chain.append(superclass)
            }
        } else {
            chain = [name]
        }
        return (name, chain)
    }

    /// Decodes the root object into a tree.
    /// - Throws: ``KeyedArchiveError`` naming the object at fault.
    public func decodeRoot() throws -> ArchivedValue {
        try decodeValue(at: rootUID)
    }

    /// Decodes the object at a UID into a tree, following UIDs with bounds, cycle, depth and
    /// expansion checks.
    /// - Throws: ``KeyedArchiveError`` naming the object at fault.
    func decodeValue(at uid: UInt64) throws -> ArchivedValue {
        var decoder = KeyedArchiveDecoder(archive: self)
        return try decoder.decode(uid: uid, keyPath: uid == rootUID ? "$top.\(topKey)" : "$objects")
    }

    /// Decodes the root object, which must be an object dictionary, keeping every field raw:
    /// inline values as they are, UIDs decoded.
    func decodeRootObject() throws -> ArchivedObject {
        var decoder = KeyedArchiveDecoder(archive: self)
        return try decoder.decodeRawObject(uid: rootUID)
    }

    /// Archives are equal when their contents are; the decoding limits do not count.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.archiver == rhs.archiver && lhs.version == rhs.version && lhs.topKey == rhs.topKey
            && lhs.rootUID == rhs.rootUID && lhs.objects == rhs.objects
    }

    /// Hashes the contents, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(archiver)
        hasher.combine(version)
        hasher.combine(topKey)
        hasher.combine(rootUID)
        hasher.combine(objects)
    }

    /// A value shortened for an error message.
    static func show(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let string):
            string.count > 40 ? "\"\(string.prefix(40))…\"" : "\"\(string)\""
        case .integer(let integer): "integer \(integer)"
        case .real(let real): "real \(real)"
        case .boolean(let bool): "boolean \(bool)"
        case .uid(let uid): "UID \(uid)"
        case .array(let elements): "an array of \(elements.count)"
        case .set(let elements): "a set of \(elements.count)"
        case .dictionary(let dictionary): "a dictionary of \(dictionary.count) keys"
        case .data(let data): "\(data.count) bytes of data"
        case .date: "a date"
        case .null: "a null object"
        }
    }
}
