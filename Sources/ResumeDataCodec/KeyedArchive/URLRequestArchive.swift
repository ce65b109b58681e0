import Foundation

/// An archived `NSURLRequest`, as the resume dictionary's `NSURLSessionResumeCurrentRequest`
/// and `NSURLSessionResumeOriginalRequest` hold it (spec §3).
///
/// The request object is a list of *items* under numbered keys: item *i* under
/// `__nsurlrequest_proto_prop_obj_<i>` in the secure layout, under `$<i+3>` in the legacy one,
/// after three header integers under `$0`, `$1`, `$2`. Every item is kept verbatim
/// (inline or by reference, as found); the typed properties read and write the items whose
/// meaning is known. Named keys (`startTimeoutTime`, `allowedProtocolTypes`, …) are kept in
/// order too, so decoding then encoding loses nothing.
public struct URLRequestArchive: Sendable, Hashable {
    /// How items are keyed inside the request object.
    package enum Layout: String, Sendable, Hashable, CaseIterable {
        /// `__nsurlrequest_proto_prop_obj_<i>` and `__nsurlrequest_proto_props`: what Apple writes
        /// today, and what iOS 10.0/10.1 wrote although their reader wanted ``legacy``.
        case secure
        /// `$<i+3>`, and the protocol properties under the next number after the last item.
        case legacy

        /// The top key that goes with the layout when converting: `root` for legacy (what the
        /// iOS 10 reader expects), `NSKeyedArchiveRootObjectKey` for secure (what Apple writes).
        var defaultTopKey: String {
            switch self {
            case .secure: KeyedArchive.rootObjectKey
            case .legacy: KeyedArchive.rootKey
            }
        }
    }

    /// Item numbers whose meaning is known.
    enum Item {
        static let isMutable = 0
        static let url = 1
        static let timeoutInterval = 2
        static let cachePolicy = 3
        static let mainDocumentURL = 4
        static let httpMethod = 18
        static let headers = 19
        static let body = 20
        static let bodyStream = 21
    }

    /// The header entry CFNetwork adds (a base64 property list of header arrays); hidden from
    /// ``headers`` but kept in the archive.
    static let hiddenHeaderKey = "__hhaa__"
    static let secureItemPrefix = "__nsurlrequest_proto_prop_obj_"
    static let securePropertiesKey = "__nsurlrequest_proto_props"
    static let headerKeys = ["$0", "$1", "$2"]
    static let itemsToDecode = [Item.isMutable, Item.url, Item.timeoutInterval, Item.cachePolicy,
                                Item.mainDocumentURL, Item.httpMethod, Item.headers, Item.body]

    /// The layout the items were found in.
    package var layout: Layout
    /// The archive's top key (`NSKeyedArchiveRootObjectKey` in real blobs, `root` after the mend).
    var topKey: String
    /// The request's class: `NSURLRequest` or `NSMutableURLRequest`.
    var className: String
    /// The class chain, most derived first.
    var classChain: [String]
    /// `$0`: the archive version (2 in every known archive).
    var archiveVersion: Int64
    /// `$1`: a number of unconfirmed meaning (9 in every known archive).
    var unconfirmedHeaderValue: Int64
    /// `$2`: the item count as written (22 for HTTP requests, 16 otherwise).
    var itemCount: Int64
    /// Every item in order, verbatim: `items[i]` is item *i*.
    var items: [ArchivedObject.FieldValue]
    /// The protocol-properties entry, or `nil` when the key is absent.
    var protocolProperties: ArchivedObject.FieldValue?
    /// Every other key of the request object, in archive order.
    var namedFields: [ArchivedObject.Field]

    /// Decodes a request archive (binary or XML keyed archive).
    /// - Throws: ``KeyedArchiveError`` naming the object and key at fault.
    public init(archiveData: Data, options: KeyedArchiveOptions = .default) throws {
        // Binary archives as Apple writes them are read in place, which is faster; anything else,
        // and every error, is left to the full decoder (see BinaryRequestArchiveReader).
        if options == .default, let request = BinaryRequestArchiveReader.request(from: archiveData) {
            self = request
            return
        }
        try self.init(archive: KeyedArchive(data: archiveData, options: options))
    }

    /// Decodes a request from a keyed archive, following its top UID.
    /// - Throws: `KeyedArchiveError.Code.unexpectedClass` when the root is not an
    ///   `NSURLRequest`, and other ``KeyedArchiveError``s naming the key at fault.
    init(archive: KeyedArchive) throws {
        try self.init(object: archive.decodeRootObject(), topKey: archive.topKey, keyPath: "$objects[\(archive.rootUID)]")
    }

    /// Decodes a request from an object already decoded, e.g. one archived inline in a larger
    /// archive (the Network-framework format of spec §6).
    /// - Parameters:
    ///   - topKey: the top key to archive it under when written stand-alone.
    ///   - keyPath: where the object is, for error messages.
    /// - Throws: ``KeyedArchiveError`` naming the key at fault.
    init(object: ArchivedObject, topKey: String = KeyedArchive.rootObjectKey, keyPath: String) throws {
        let path = keyPath
        guard Self.isRequestClass(object) else {
            throw KeyedArchiveError(.unexpectedClass, "the root is an \(object.className), not an NSURLRequest", keyPath: path)
        }
        let itemized = try ItemizedObject(object, keyPath: path, propertiesKey: Self.securePropertiesKey)
        self.layout = itemized.layout
        self.topKey = topKey
        self.className = object.className
        self.classChain = object.classChain
        self.archiveVersion = itemized.header[0]
        self.unconfirmedHeaderValue = itemized.header[1]
        self.itemCount = itemized.header[2]
        self.items = itemized.items
        self.protocolProperties = itemized.properties
        self.namedFields = itemized.namedFields
        try validateKnownItems(path: path)
    }

    /// Builds a request the way an iOS 10 device archives a plain `GET` (or other) request:
    /// class `NSURLRequest`, secure layout, top key `NSKeyedArchiveRootObjectKey`, 22 items, the
    /// unconfirmed items set to the values real archives carry, and the iOS 10 named keys.
    ///
    /// Headers with the same name keep the first position and the last value, as setting them
    /// one by one on an `NSMutableURLRequest` would.
    package init(
        url: URL,
        method: String = "GET",
        headers: [(name: String, value: String)] = [],
        timeoutInterval: Double = 60,
        cachePolicy: Int64 = 0,
        body: Data? = nil
    ) {
        func ref(_ value: ArchivedValue) -> ArchivedObject.FieldValue { .reference(value) }
        layout = .secure
        topKey = KeyedArchive.rootObjectKey
        className = "NSURLRequest"
        classChain = ["NSURLRequest", "NSObject"]
        archiveVersion = 2
        unconfirmedHeaderValue = 9
        itemCount = 22
        items = [
            ref(.boolean(false)),
            ref(.url(ArchivedURL(relativeString: url.absoluteString))),
            ref(.real(PropertyListReal(timeoutInterval))),
            ref(.integer(PropertyListInteger(cachePolicy))),
            ref(.null),
            // 5–17: meaning unconfirmed; the values of the real iOS 10.1 archives.
            ref(.boolean(true)), ref(.integer(4)), ref(.null), ref(.null), ref(.boolean(true)),
            ref(.boolean(false)), ref(.integer(0)), ref(.real(0.0)), ref(.real(0.0)), ref(.integer(0)),
            ref(.integer(-1)), ref(.null), ref(.integer(2)),
            ref(.string(method)),
            ref(.null),
            ref(body.map(ArchivedValue.data) ?? .null),
            ref(.null),
        ]
        protocolProperties = ref(.null)
        namedFields = [
            .init(key: "startTimeoutTime", value: .inline(0.0)),
            .init(key: "requiresShortConnectionTimeout", value: .inline(false)),
            .init(key: "payloadTransmissionTimeout", value: .inline(0.0)),
            .init(key: "allowedProtocolTypes", value: .inline(0)),
        ]
        self.headers = headers
    }

    // MARK: Encoding

    /// The request as a keyed archive in the given layout (`nil`: as read) under the given top
    /// key (`nil`: as read when the layout is unchanged, else ``Layout/defaultTopKey``).
    /// - Throws: `KeyedArchiveError.Code.keyConflict` when a named key collides with an item
    ///   key of the layout, `KeyedArchiveError.Code.unrepresentable` for malformed items.
    func keyedArchive(layout: Layout? = nil, topKey: String? = nil) throws -> KeyedArchive {
        let layout = layout ?? self.layout
        let topKey = topKey ?? (layout == self.layout ? self.topKey : layout.defaultTopKey)
        return try KeyedArchive(encoding: .object(archivedObject(layout: layout)), topKey: topKey)
    }

    /// The request object in the given layout (`nil`: as read), to archive inline in another
    /// archive.
    /// - Throws: `KeyedArchiveError.Code.keyConflict` when a named key collides with an item
    ///   key of the layout.
    func archivedObject(layout: Layout? = nil) throws -> ArchivedObject {
        let fields = try ItemizedObject.fields(
            header: [archiveVersion, unconfirmedHeaderValue, itemCount], items: items, properties: protocolProperties,
            namedFields: namedFields, layout: layout ?? self.layout)
        return ArchivedObject(className: className, classChain: classChain, fields: fields)
    }

    /// The request as a binary keyed archive; see ``keyedArchive(layout:topKey:)``.
    func archiveData(layout: Layout? = nil, topKey: String? = nil) throws -> Data {
        try keyedArchive(layout: layout, topKey: topKey).data(format: .binary)
    }

    // MARK: Known items

    /// The URL string (item 1), resolved against its base.
    public var urlString: String? {
        get { urlItem(Item.url)?.absoluteString }
        set { setItem(Item.url, newValue.map { .url(ArchivedURL(relativeString: $0)) } ?? .null) }
    }

    /// The URL (item 1), when Foundation can parse it.
    public var url: URL? { urlString.flatMap(URL.init(string:)) }

    /// The main-document URL string (item 4), resolved against its base.
    public var mainDocumentURLString: String? {
        get { urlItem(Item.mainDocumentURL)?.absoluteString }
        set { setItem(Item.mainDocumentURL, newValue.map { .url(ArchivedURL(relativeString: $0)) } ?? .null) }
    }

    /// The main-document URL (item 4), when present and parseable.
    public var mainDocumentURL: URL? { mainDocumentURLString.flatMap(URL.init(string:)) }

    /// The timeout interval in seconds (item 2).
    public var timeoutInterval: Double? {
        get {
            switch item(Item.timeoutInterval) {
            case .real(let real)?: real.value
            case .integer(let integer)?: integer.doubleValue
            default: nil
            }
        }
        set { setItem(Item.timeoutInterval, newValue.map { .real(PropertyListReal($0)) } ?? .null) }
    }

    /// The cache policy (item 3), an `NSURLRequestCachePolicy` raw value.
    public var cachePolicy: Int64? {
        get { if case .integer(let integer)? = item(Item.cachePolicy) { integer.int64Value } else { nil } }
        set { setItem(Item.cachePolicy, newValue.map { .integer(PropertyListInteger($0)) } ?? .null) }
    }

    /// The HTTP method (item 18); `nil` means GET.
    public var httpMethod: String? {
        get { item(Item.httpMethod)?.stringValue }
        set { setItem(Item.httpMethod, newValue.map(ArchivedValue.string) ?? .null) }
    }

    /// The HTTP method, `GET` when none is stored.
    public var method: String { httpMethod ?? "GET" }

    /// The header fields (item 19) in archive order, without CFNetwork's hidden `__hhaa__` entry.
    ///
    /// Setting replaces the fields and keeps `__hhaa__` (at the end) if there was one; a name
    /// given twice keeps its first position and last value. An empty list stores nil.
    public var headers: [(name: String, value: String)] {
        get {
            (item(Item.headers)?.dictionaryEntries ?? []).compactMap { entry in
                guard entry.key != Self.hiddenHeaderKey, case .string(let value) = entry.value else { return nil }
                return (entry.key, value)
            }
        }
        set {
            var entries: [ArchivedValue.DictionaryEntry] = []
            var positions: [String: Int] = [:]
            for (name, value) in newValue where name != Self.hiddenHeaderKey {
                if let position = positions[name] {
                    entries[position].value = .string(value)
                } else {
                    positions[name] = entries.count
                    entries.append(.init(key: name, value: .string(value)))
                }
            }
            if let hidden = item(Item.headers)?.dictionaryEntries?.first(where: { $0.key == Self.hiddenHeaderKey }) {
                entries.append(hidden)
            }
            setItem(Item.headers, entries.isEmpty ? .null : .dictionary(entries))
        }
    }

    /// The value of a header field, matched without regard to case as HTTP does.
    public func headerValue(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// CFNetwork's hidden `__hhaa__` header entry, if present.
    var hiddenHeaderArchive: String? {
        item(Item.headers)?.dictionaryEntries?.first { $0.key == Self.hiddenHeaderKey }?.value.stringValue
    }

    /// The HTTP body (item 20).
    public var body: Data? {
        get { if case .data(let data)? = item(Item.body) { data } else { nil } }
        set { setItem(Item.body, newValue.map(ArchivedValue.data) ?? .null) }
    }

    /// Whether the request was an `NSMutableURLRequest` (item 0).
    var isMutable: Bool {
        if case .boolean(let value)? = item(Item.isMutable) { return value }
        return className == "NSMutableURLRequest"
    }

    /// The items whose meaning is unconfirmed (5–17 and 21), with their numbers, as stored.
    var unconfirmedItems: [(index: Int, value: ArchivedObject.FieldValue)] {
        items.indices.filter { (5...17).contains($0) || $0 == Item.bodyStream || $0 > Item.bodyStream }.map { ($0, items[$0]) }
    }

    // MARK: Helpers

    static func itemKey(_ index: Int, layout: Layout) -> String {
        // The usual numbers come from a table: spelling the key of every item of every request
        // was a string allocation each.
        if index >= 0, index < commonItemKeyCount {
            return layout == .secure ? secureItemKeys[index] : legacyItemKeys[index]
        }
        return spelledItemKey(index, layout: layout)
    }

    private static let commonItemKeyCount = 32
    private static let secureItemKeys = (0 ..< commonItemKeyCount).map { spelledItemKey($0, layout: .secure) }
    private static let legacyItemKeys = (0 ..< commonItemKeyCount).map { spelledItemKey($0, layout: .legacy) }

    private static func spelledItemKey(_ index: Int, layout: Layout) -> String {
        switch layout {
        case .secure: "\(secureItemPrefix)\(index)"
        case .legacy: "$\(index + headerKeys.count)"
        }
    }

    /// The number `digits` spell as `String(n)` spells it (no sign, no leading zero), when it is
    /// below `limit`: the *n* of an item key, read back without building every key to compare.
    static func itemNumber(_ digits: some Collection<UInt8>, below limit: Int) -> Int? {
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            guard value < limit else { return nil }
        }
        return value
    }

    static func layout(ofKeys keys: some Sequence<String>) -> Layout {
        keys.contains { $0 == securePropertiesKey || $0.hasPrefix(secureItemPrefix) } ? .secure : .legacy
    }

    static func isRequestClass(_ object: ArchivedObject) -> Bool {
        object.className == "NSMutableURLRequest" || object.isKind(of: "NSURLRequest")
    }

    private func item(_ index: Int) -> ArchivedValue? {
        items.indices.contains(index) ? items[index].value : nil
    }

    private func urlItem(_ index: Int) -> ArchivedURL? {
        if case .url(let url)? = item(index) { return url }
        return nil
    }

    /// Stores a known item by reference, as Apple's writer does; items up to it that are
    /// missing become nil, and the count grows to cover it.
    private mutating func setItem(_ index: Int, _ value: ArchivedValue) {
        while items.count <= index { items.append(.reference(.null)) }
        items[index] = .reference(value)
        itemCount = max(itemCount, Int64(items.count))
    }

    /// Checks the items this type interprets, so the typed properties never meet a surprise.
    private func validateKnownItems(path: String) throws {
        for index in Self.itemsToDecode where items.indices.contains(index) {
            // Spelled only for an error: this runs for every request of every blob inspected.
            func key() -> String { "\(path).\(Self.itemKey(index, layout: layout))" }
            guard let value = items[index].value else {
                throw KeyedArchiveError(.unexpectedType, "item \(index) is \(items[index]), not a single value", keyPath: key())
            }
            let valid: Bool
            switch (index, value) {
            case (_, .null) where index != Item.isMutable && index != Item.timeoutInterval && index != Item.cachePolicy: valid = true
            case (Item.isMutable, .boolean): valid = true
            case (Item.url, .url), (Item.mainDocumentURL, .url): valid = true
            case (Item.timeoutInterval, .real), (Item.timeoutInterval, .integer): valid = true
            case (Item.cachePolicy, .integer(let integer)): valid = integer.int64Value != nil
            case (Item.httpMethod, .string), (Item.body, .data): valid = true
            case (Item.headers, .dictionary(let entries)):
                valid = entries.allSatisfy { $0.key == Self.hiddenHeaderKey || $0.value.stringValue != nil }
            default: valid = false
            }
            guard valid else {
                throw KeyedArchiveError(.unexpectedType, "item \(index) is \(value), not \(Self.expectedType(ofItem: index))", keyPath: key())
            }
        }
    }

    private static func expectedType(ofItem index: Int) -> String {
        switch index {
        case Item.isMutable: "a boolean"
        case Item.url, Item.mainDocumentURL: "an NSURL or nil"
        case Item.timeoutInterval: "a number"
        case Item.cachePolicy: "an integer"
        case Item.httpMethod: "a string or nil"
        case Item.headers: "a dictionary of strings or nil"
        default: "data or nil"
        }
    }
}
