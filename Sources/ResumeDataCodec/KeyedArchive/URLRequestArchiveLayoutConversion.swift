import Foundation

extension URLRequestArchive {
    /// Moves a request archive's items to another layout, touching nothing else: this is the
    /// iOS 10.0/10.1 mend of spec §5.1 (secure → legacy, top key `root`) and its reverse
    /// (legacy → secure, top key `NSKeyedArchiveRootObjectKey`).
    ///
    /// Secure → legacy, per the spec: k = the number of consecutive `$0`, `$1`, … keys; item
    /// *i* moves from `__nsurlrequest_proto_prop_obj_<i>` to `$<i+k>` for i = 0, 1, … up to the
    /// first missing one, and `__nsurlrequest_proto_props` to `$<n+k>`. Legacy → secure undoes
    /// it, taking the item count n from `$2`. Keys keep their positions in the object, named
    /// keys and every other object stay as they are, and the archive is written back as binary.
    ///
    /// An archive already in the target layout is returned unchanged, byte for byte, so the
    /// conversion is idempotent.
    /// - Throws: ``KeyedArchiveError`` when the bytes are not a request archive, or a renamed key
    ///   would overwrite one that is present (`KeyedArchiveError.Code.keyConflict`).
    static func convertLayout(of archiveData: Data, to layout: Layout, options: KeyedArchiveOptions = .default) throws -> Data {
        let propertyList: PropertyListValue
        do {
            propertyList = try PropertyListReader(options: options.propertyListOptions).read(archiveData).value
        } catch let error as PropertyListError {
            throw KeyedArchiveError(error)
        }
        guard let converted = try convertLayout(of: propertyList, to: layout, options: options) else {
            return archiveData
        }
        do {
            return try PropertyListWriter().write(converted, as: .binary)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(error)
        }
    }

    /// The property list of a request archive with its items moved to `layout`, or `nil` when
    /// it is already in that layout. See ``convertLayout(of:to:options:)``.
    static func convertLayout(of propertyList: PropertyListValue, to layout: Layout, options: KeyedArchiveOptions = .default) throws -> PropertyListValue? {
        let archive = try KeyedArchive(propertyList, options: options)
        let uid = archive.rootUID
        let path = "$objects[\(uid)]"
        let requestClass = try archive.objectClass(at: uid)
        guard isRequestClass(ArchivedObject(className: requestClass.name, classChain: requestClass.chain, fields: [])),
              case .dictionary(let request) = archive.objects[Int(uid)],
              case .dictionary(var top) = propertyList
        else {
            throw KeyedArchiveError(.unexpectedClass, "the root is an \(requestClass.name), not an NSURLRequest", keyPath: path)
        }
        guard self.layout(ofKeys: request.keys) != layout else { return nil }

        let renames = try renames(in: request, to: layout, path: path)
        var converted = PropertyListDictionary()
        for (key, value) in request {
            let newKey = renames[key] ?? key
            guard converted.updateValue(value, forKey: newKey) == nil else {
                throw KeyedArchiveError(.keyConflict, "moving an item to \(newKey) would overwrite the key already there", keyPath: path)
            }
        }
        var objects = archive.objects
        objects[Int(uid)] = .dictionary(converted)
        top["$objects"] = .array(objects)
        top["$top"] = .dictionary([layout.defaultTopKey: .uid(uid)])
        return .dictionary(top)
    }

    /// Old key → new key for every item and the protocol properties.
    private static func renames(in request: PropertyListDictionary, to layout: Layout, path: String) throws -> [String: String] {
        var renames: [String: String] = [:]
        switch layout {
        case .legacy:
            var headerCount = 0
            while request["$\(headerCount)"] != nil { headerCount += 1 }
            var index = 0
            while request[itemKey(index, layout: .secure)] != nil {
                renames[itemKey(index, layout: .secure)] = "$\(index + headerCount)"
                index += 1
            }
            if request[securePropertiesKey] != nil {
                renames[securePropertiesKey] = "$\(index + headerCount)"
            }
        case .secure:
            guard case .integer(let countValue)? = request["$2"], let count = countValue.int64Value, count >= 0 else {
                throw KeyedArchiveError(.missingKey, "a legacy request needs its item count in $2", keyPath: path)
            }
            var index = 0
            while index < count, request[itemKey(index, layout: .legacy)] != nil {
                renames[itemKey(index, layout: .legacy)] = itemKey(index, layout: .secure)
                index += 1
            }
            guard index == count else {
                throw KeyedArchiveError(.missingKey, "$2 announces \(count) items but \(itemKey(index, layout: .legacy)) (item \(index)) is missing", keyPath: path)
            }
            if request[itemKey(index, layout: .legacy)] != nil {
                renames[itemKey(index, layout: .legacy)] = securePropertiesKey
            }
        }
        return renames
    }
}
