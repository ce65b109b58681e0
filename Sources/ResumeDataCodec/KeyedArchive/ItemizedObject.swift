/// The part that archived requests and responses share (spec §3, §6a): three header integers
/// under `$0`, `$1`, `$2`, items under `__nsurlrequest_proto_prop_obj_<i>` (secure layout) or
/// `$<i+3>` (legacy layout, where only the count in `$2` says where they end), an optional
/// properties key after them, and named keys that are kept as they are.
struct ItemizedObject {
    var layout: URLRequestArchive.Layout
    /// `$0`, `$1`, `$2`.
    var header: [Int64]
    var items: [ArchivedObject.FieldValue]
    var properties: ArchivedObject.FieldValue?
    var namedFields: [ArchivedObject.Field]

    /// - Parameter propertiesKey: the secure layout's key for the entry after the items
    ///   (`__nsurlrequest_proto_props` for requests), or `nil` when the class has none.
    init(_ object: ArchivedObject, keyPath path: String, propertiesKey: String?) throws {
        // Each field's position, and whether a known key took it: what is left over becomes
        // `namedFields`. (Positions and flags rather than a set of used keys: this runs for every
        // request of every blob `inspect` reads, and hashing the keys twice showed in profiles.)
        var positions: [String: Int] = [:]
        positions.reserveCapacity(object.fields.count)
        for (index, field) in object.fields.enumerated() { positions[field.key] = index }
        var taken = [Bool](repeating: false, count: object.fields.count)
        func take(_ key: String) -> ArchivedObject.FieldValue? {
            guard let index = positions[key] else { return nil }
            taken[index] = true
            return object.fields[index].value
        }

        var header: [Int64] = []
        for key in URLRequestArchive.headerKeys {
            guard let value = take(key) else {
                throw KeyedArchiveError(.missingKey, "no \(key)", keyPath: path)
            }
            guard case .inline(.integer(let integer)) = value, let number = integer.int64Value else {
                throw KeyedArchiveError(.unexpectedType, "\(value) is not an inline integer", keyPath: "\(path).\(key)")
            }
            header.append(number)
        }
        var items: [ArchivedObject.FieldValue] = []
        let layout = URLRequestArchive.layout(ofKeys: positions.keys)
        switch layout {
        case .secure:
            // Bounded by the number of fields: each item takes one.
            while let item = take(URLRequestArchive.itemKey(items.count, layout: .secure)) {
                items.append(item)
            }
            properties = propertiesKey.flatMap(take)
        case .legacy:
            let count = header[2]
            guard count >= 0 else {
                throw KeyedArchiveError(.unexpectedType, "item count \(count) is negative", keyPath: "\(path).$2")
            }
            while items.count < count {
                let key = URLRequestArchive.itemKey(items.count, layout: .legacy)
                guard let item = take(key) else {
                    throw KeyedArchiveError(.missingKey, "$2 announces \(count) items but \(key) (item \(items.count)) is missing", keyPath: path)
                }
                items.append(item)
            }
            properties = propertiesKey == nil ? nil : take(URLRequestArchive.itemKey(items.count, layout: .legacy))
        }
        self.layout = layout
        self.header = header
        self.items = items
        self.namedFields = zip(object.fields, taken).compactMap { field, isTaken in isTaken ? nil : field }
    }
}
