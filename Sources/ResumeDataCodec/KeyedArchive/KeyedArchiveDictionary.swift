import Foundation

/// The resume dictionary in its iOS 12+ container: a keyed archive whose root is an
/// `NSMutableDictionary` of plain values.
extension KeyedArchive {
    /// Decodes an archive whose root is an `NSDictionary`/`NSMutableDictionary` into a plain
    /// dictionary (nested dictionaries and arrays allowed).
    /// - Throws: ``KeyedArchiveError``: `KeyedArchiveError.Code.unexpectedClass` when the root
    ///   is not a dictionary, `KeyedArchiveError.Code.nonStringKeys` when a key of it is not a
    ///   string, `KeyedArchiveError.Code.unrepresentable` (with the key path) for nil values,
    ///   URLs, objects of other classes or dictionaries keyed otherwise than by strings inside it.
    static func decodeDictionary(_ propertyList: PropertyListValue, options: KeyedArchiveOptions = .default) throws -> PropertyListDictionary {
        try KeyedArchive(propertyList, options: options).decodeRootDictionary()
    }

    /// Decodes bytes (binary or XML) holding an archived dictionary; see
    /// ``decodeDictionary(_:options:)``.
    static func decodeDictionary(data: Data, options: KeyedArchiveOptions = .default) throws -> PropertyListDictionary {
        try KeyedArchive(data: data, options: options).decodeRootDictionary()
    }

    /// Archives a plain dictionary as Apple's writer archives the resume dictionary: the root an
    /// object of `className` (`NSMutableDictionary` by default), strings, numbers, booleans and
    /// data stored inline in `$objects`, nested dictionaries and arrays as `NSMutableDictionary`
    /// and `NSMutableArray` objects, dates as `NSDate`.
    /// - Throws: `KeyedArchiveError.Code.unrepresentable` for sets and UIDs, naming the key.
    static func encodeDictionary(
        _ dictionary: PropertyListDictionary,
        topKey: String = KeyedArchive.rootObjectKey,
        className: String = "NSMutableDictionary"
    ) throws -> PropertyListValue {
        guard case .dictionary(let entries) = try ArchivedValue(plain: .dictionary(dictionary)) else {
            throw KeyedArchiveError(.unrepresentable, "not a dictionary")
        }
        let chain = className == "NSDictionary" ? ["NSDictionary", "NSObject"] : [className, "NSDictionary", "NSObject"]
        var encoder = KeyedArchiveEncoder()
        let rootUID = try encoder.encodeDictionary(entries, chain: chain, keyPath: "")
        return KeyedArchive(encodedObjects: encoder.objects, rootUID: rootUID, topKey: topKey).propertyList
    }

    func decodeRootDictionary() throws -> PropertyListDictionary {
        let rootClass = try objectClass(at: rootUID)
        guard rootClass.chain.contains("NSDictionary") || ["NSDictionary", "NSMutableDictionary"].contains(rootClass.name) else {
            throw KeyedArchiveError(.unexpectedClass, "the root is an \(rootClass.name), not an NSDictionary", keyPath: "$objects[\(rootUID)]")
        }
        let root = try decodeRoot()
        if case .objectKeyedDictionary(let pairs) = root {
            throw KeyedArchiveError(.nonStringKeys, "the root \(rootClass.name) has \(ArchivedValue.describeKeys(of: pairs))", keyPath: "$objects[\(rootUID)]")
        }
        guard case .dictionary(let dictionary) = try root.plainValue() else {
            throw KeyedArchiveError(.unexpectedClass, "the root of class \(rootClass.name) is not decoded as a dictionary", keyPath: "$objects[\(rootUID)]")
        }
        return dictionary
    }
}
