import Foundation

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
        // Each field's role comes from the spelling of its key, in one pass: a header (`$0` to
        // `$2`), item *n* of either layout (`__nsurlrequest_proto_prop_obj_<n>`, `$<n+3>`, with
        // `<n>` spelled as `String(n)` spells it), or the properties key; the fields no role
        // takes become `namedFields`. (Hashing every key into a dictionary to look the same keys
        // up again was most of this initializer's time, which runs for every request and
        // response `inspect` reads.) An item number at or past the field count can never be
        // reached, since items are taken from 0 without a gap, so such a key stays a named field.
        let fields = object.fields
        let slots = fields.count + 1
        // One table, one allocation (this runs for every request and response): the field
        // positions of `$0` to `$2` at [0, 3), of the secure layout's items from `secure`, of the
        // legacy layout's from `legacy`, -1 where there is none; then, from `takenStart`, 1 for
        // each field a role took.
        let secure = 3, legacy = 3 + slots, takenStart = 3 + 2 * slots
        var table = [Int](repeating: -1, count: takenStart + fields.count)
        var propertiesField: Int?
        var isSecure = false
        // Requests' key is spelled once, not per request.
        let propertiesKeyBytes = propertiesKey.map { $0 == URLRequestArchive.securePropertiesKey ? Self.securePropertiesKey : Array($0.utf8) }
        for (index, field) in fields.enumerated() {
            var key = field.key
            key.withUTF8 { key in
                if Self.hasPrefix(key, Self.securePrefix) {
                    isSecure = true
                    if let number = URLRequestArchive.itemNumber(key[Self.securePrefix.count...], below: slots) { table[secure + number] = index }
                } else if key.first == UInt8(ascii: "$"), let number = URLRequestArchive.itemNumber(key[1...], below: slots + 3) {
                    table[number < 3 ? number : legacy + number - 3] = index
                } else if key.count == Self.securePropertiesKey.count, Self.hasPrefix(key, Self.securePropertiesKey) {
                    isSecure = true
                }
                if let propertiesKeyBytes, key.count == propertiesKeyBytes.count, Self.hasPrefix(key, propertiesKeyBytes) { propertiesField = index }
            }
        }
        var takenCount = 0
        func take(field index: Int?) -> ArchivedObject.FieldValue? {
            guard let index, index >= 0 else { return nil }
            if table[takenStart + index] != 1 {
                table[takenStart + index] = 1
                takenCount += 1
            }
            return fields[index].value
        }
        func take(slot: Int) -> ArchivedObject.FieldValue? { take(field: table[slot]) }

        var header: [Int64] = []
        header.reserveCapacity(3)
        for (number, key) in URLRequestArchive.headerKeys.enumerated() {
            guard let value = take(slot: number) else {
                throw KeyedArchiveError(.missingKey, "no \(key)", keyPath: path)
            }
            guard case .inline(.integer(let integer)) = value, let number = integer.int64Value else {
                throw KeyedArchiveError(.unexpectedType, "\(value) is not an inline integer", keyPath: "\(path).\(key)")
            }
            header.append(number)
        }
        var items: [ArchivedObject.FieldValue] = []
        items.reserveCapacity(fields.count)
        let layout: URLRequestArchive.Layout = isSecure ? .secure : .legacy
        switch layout {
        case .secure:
            // Bounded by the number of fields: each item takes one.
            while items.count < slots, let item = take(slot: secure + items.count) {
                items.append(item)
            }
            self.properties = take(field: propertiesField)
        case .legacy:
            let count = header[2]
            guard count >= 0 else {
                throw KeyedArchiveError(.unexpectedType, "item count \(count) is negative", keyPath: "\(path).$2")
            }
            while items.count < count {
                guard items.count < slots, let item = take(slot: legacy + items.count) else {
                    let key = URLRequestArchive.itemKey(items.count, layout: .legacy)
                    throw KeyedArchiveError(.missingKey, "$2 announces \(count) items but \(key) (item \(items.count)) is missing", keyPath: path)
                }
                items.append(item)
            }
            self.properties = propertiesKey == nil || items.count >= slots ? nil : take(slot: legacy + items.count)
        }
        self.layout = layout
        self.header = header
        self.items = items
        var namedFields: [ArchivedObject.Field] = []
        namedFields.reserveCapacity(fields.count - takenCount)
        for (index, field) in fields.enumerated() where table[takenStart + index] != 1 { namedFields.append(field) }
        self.namedFields = namedFields
    }

    /// An itemized object's fields in `layout`, as the initializer reads them: `$0` to `$2`, the
    /// items, the properties entry (under `__nsurlrequest_proto_props` in the secure layout, the
    /// key after the last item in the legacy one), then the named fields.
    /// - Throws: `KeyedArchiveError.Code.keyConflict` when a named key collides with a key of
    ///   the layout.
    static func fields(
        header: [Int64], items: [ArchivedObject.FieldValue], properties: ArchivedObject.FieldValue?,
        namedFields: [ArchivedObject.Field], layout: URLRequestArchive.Layout
    ) throws -> [ArchivedObject.Field] {
        var fields = zip(URLRequestArchive.headerKeys, header).map { key, value in
            ArchivedObject.Field(key: key, value: .inline(.integer(PropertyListInteger(value))))
        }
        for (index, item) in items.enumerated() {
            fields.append(.init(key: URLRequestArchive.itemKey(index, layout: layout), value: item))
        }
        if let properties {
            let key = layout == .secure ? URLRequestArchive.securePropertiesKey : URLRequestArchive.itemKey(items.count, layout: .legacy)
            fields.append(.init(key: key, value: properties))
        }
        let reserved = Set(fields.map(\.key))
        for field in namedFields {
            guard !reserved.contains(field.key) else {
                throw KeyedArchiveError(.keyConflict, "named key \(field.key) collides with a \(layout.rawValue)-layout key", keyPath: field.key)
            }
            fields.append(field)
        }
        return fields
    }

    /// Whether `key` starts with `prefix`, compared as memory (the generic `starts(with:)` goes
    /// byte by byte, and this runs for every field of every request and response).
    private static func hasPrefix(_ key: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard key.count >= prefix.count else { return false }
        return prefix.withUnsafeBufferPointer { prefix in
            guard let keyBase = key.baseAddress, let prefixBase = prefix.baseAddress else { return prefix.isEmpty }
            return memcmp(keyBase, prefixBase, prefix.count) == 0
        }
    }

    private static let securePrefix = Array(URLRequestArchive.secureItemPrefix.utf8)
    private static let securePropertiesKey = Array(URLRequestArchive.securePropertiesKey.utf8)
}
