import Foundation

/// An archived `NSHTTPURLResponse` or plain `NSURLResponse` (spec §6a): what the resume
/// dictionary's `NSURLSessionResumeResponse` holds, and the `response` of the Network-framework
/// format.
///
/// Archived like a request (spec §3): three integers under `$0`, `$1`, `$2` (the third the item
/// count), then item *i* under `__nsurlrequest_proto_prop_obj_<i>` (secure layout) or `$<i+3>`
/// (legacy layout). Every item and every other key is kept verbatim, in order; the typed properties read the items by meaning and give `nil` where an item
/// is absent or of a type that does not fit, so an unfamiliar response is shown, not refused.
public struct ArchivedURLResponse: Sendable, Hashable {
    /// Item numbers whose meaning is known. The two classes differ from item 3 on.
    enum Item {
        static let url = 0
        static let creationTime = 1
        static let httpStatusCode = 3
        static let httpHeaders = 4
        static let httpExpectedLength = 5
        static let httpMIMEType = 6
        static let mimeType = 3
        static let textEncodingName = 4
        static let expectedLength = 5
    }

    /// The layout the items were found in.
    package var layout: URLRequestArchive.Layout
    /// The archive's top key (`root` as CFNetwork writes it).
    var topKey: String
    /// The response's class: `NSHTTPURLResponse`, `NSURLResponse`, or a subclass.
    package var className: String
    /// The class chain, most derived first.
    var classChain: [String]
    /// `$0`: the archive version (8 in every known archive).
    var archiveVersion: Int64
    /// `$1`: a number of unconfirmed meaning (0 or 1 in known archives).
    var unconfirmedHeaderValue: Int64
    /// `$2`: the item count as written (7 in every known archive).
    var itemCount: Int64
    /// Every item in order, verbatim: `items[i]` is item *i*.
    var items: [ArchivedObject.FieldValue]
    /// Every other key of the response object, in archive order (e.g. `$3`, `$4` after secure items).
    var namedFields: [ArchivedObject.Field]

    /// Decodes a response archive (binary or XML keyed archive).
    /// - Throws: ``KeyedArchiveError`` naming the object and key at fault.
    public init(archiveData: Data, options: KeyedArchiveOptions = .default) throws {
        try self.init(archive: KeyedArchive(data: archiveData, options: options))
    }

    /// Decodes a response from a keyed archive, following its top UID.
    /// - Throws: `KeyedArchiveError.Code.unexpectedClass` when the root is not an
    ///   `NSURLResponse`, and other ``KeyedArchiveError``s naming the key at fault.
    init(archive: KeyedArchive) throws {
        try self.init(object: archive.decodeRootObject(), topKey: archive.topKey, keyPath: "$objects[\(archive.rootUID)]")
    }

    /// Decodes a response from an object already decoded (archived inline, spec §6).
    /// - Parameters:
    ///   - topKey: the top key to archive it under when written stand-alone.
    ///   - keyPath: where the object is, for error messages.
    /// - Throws: ``KeyedArchiveError`` naming the key at fault.
    init(object: ArchivedObject, topKey: String = KeyedArchive.rootKey, keyPath: String) throws {
        guard object.isKind(of: "NSURLResponse") else {
            throw KeyedArchiveError(.unexpectedClass, "the object is an \(object.className), not an NSURLResponse", keyPath: keyPath)
        }
        let itemized = try ItemizedObject(object, keyPath: keyPath, propertiesKey: nil)
        layout = itemized.layout
        self.topKey = topKey
        className = object.className
        classChain = object.classChain
        archiveVersion = itemized.header[0]
        unconfirmedHeaderValue = itemized.header[1]
        itemCount = itemized.header[2]
        items = itemized.items
        namedFields = itemized.namedFields
        // The URL is what every reader of a response wants; anything but an NSURL there is an
        // archive of something else.
        switch items.first?.value {
        case .url?, .null?, nil: break
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "item 0 is \(other), not an NSURL or nil",
                                    keyPath: "\(keyPath).\(URLRequestArchive.itemKey(Item.url, layout: layout))")
        }
    }

    /// Builds an `NSHTTPURLResponse` the way current systems archive one (the items and extra
    /// keys of the 2020 real archive): secure layout, top key `root`, 7 items.
    init(url: String, statusCode: Int64, headers: [(name: String, value: String)], mimeType: String?, date: Date) {
        func ref(_ value: ArchivedValue) -> ArchivedObject.FieldValue { .reference(value) }
        layout = .secure
        topKey = KeyedArchive.rootKey
        className = "NSHTTPURLResponse"
        classChain = ["NSHTTPURLResponse", "NSURLResponse", "NSObject"]
        archiveVersion = 8
        unconfirmedHeaderValue = 1
        itemCount = 7
        var entries: [ArchivedValue.DictionaryEntry] = []
        for header in headers where !entries.contains(where: { $0.key == header.name }) {
            entries.append(.init(key: header.name, value: .string(header.value)))
        }
        items = [
            ref(.url(ArchivedURL(relativeString: url))),
            ref(.real(PropertyListReal(date.timeIntervalSinceReferenceDate))),
            ref(.integer(0)),
            ref(.integer(PropertyListInteger(statusCode))),
            ref(entries.isEmpty ? .null : .dictionary(entries)),
            ref(.null),
            ref(mimeType.map(ArchivedValue.string) ?? .null),
        ]
        namedFields = [.init(key: "$3", value: .inline(9)), .init(key: "$4", value: .inline(false))]
    }

    // MARK: Encoding

    /// The response object, to archive inline in another archive.
    /// - Throws: `KeyedArchiveError.Code.keyConflict` when a named key collides with an item key.
    func archivedObject() throws -> ArchivedObject {
        let fields = try ItemizedObject.fields(
            header: [archiveVersion, unconfirmedHeaderValue, itemCount], items: items, properties: nil,
            namedFields: namedFields, layout: layout)
        return ArchivedObject(className: className, classChain: classChain, fields: fields)
    }

    /// The response as a binary keyed archive under ``topKey``.
    /// - Throws: ``KeyedArchiveError`` for malformed items.
    func archiveData() throws -> Data {
        try KeyedArchive(encoding: .object(archivedObject()), topKey: topKey).data(format: .binary)
    }

    // MARK: Known items

    /// Whether this is an `NSHTTPURLResponse` (whose items 3–6 mean status, headers, length, MIME type).
    public var isHTTP: Bool {
        className == "NSHTTPURLResponse" || classChain.contains("NSHTTPURLResponse")
    }

    /// The URL string (item 0), resolved against its base.
    public var urlString: String? {
        if case .url(let url)? = item(Item.url) { return url.absoluteString }
        return nil
    }

    /// When the response was made (item 1, seconds since 2001-01-01), when finite.
    public var date: Date? {
        switch item(Item.creationTime) {
        case .real(let real)? where real.value.isFinite: Date(timeIntervalSinceReferenceDate: real.value)
        case .integer(let integer)?: Date(timeIntervalSinceReferenceDate: integer.doubleValue)
        default: nil
        }
    }

    /// The HTTP status code (item 3 of an `NSHTTPURLResponse`).
    public var statusCode: Int64? {
        guard isHTTP, case .integer(let integer)? = item(Item.httpStatusCode) else { return nil }
        return integer.int64Value
    }

    /// The header fields (item 4 of an `NSHTTPURLResponse`) in archive order, without
    /// CFNetwork's hidden `__hhaa__` entry (kept with the items) and without non-string values.
    public var headers: [(name: String, value: String)] {
        guard isHTTP else { return [] }
        return (item(Item.httpHeaders)?.dictionaryEntries ?? []).compactMap { entry in
            guard entry.key != URLRequestArchive.hiddenHeaderKey, case .string(let value) = entry.value else { return nil }
            return (entry.key, value)
        }
    }

    /// The value of a header field, matched without regard to case as HTTP does.
    public func headerValue(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The `ETag` header.
    public var entityTag: String? { headerValue("ETag") }

    /// The `Last-Modified` header.
    public var lastModified: String? { headerValue("Last-Modified") }

    /// The MIME type: item 6 of an `NSHTTPURLResponse`, item 3 of a plain `NSURLResponse`.
    public var mimeType: String? {
        item(isHTTP ? Item.httpMIMEType : Item.mimeType)?.stringValue
    }

    /// The text encoding name (item 4 of a plain `NSURLResponse`).
    public var textEncodingName: String? {
        isHTTP ? nil : item(Item.textEncodingName)?.stringValue
    }

    /// The expected length in bytes: item 5 when it holds a non-negative integer (plain responses,
    /// and HTTP responses of old systems), else, for HTTP, the `Content-Length` header, as
    /// Foundation derives it. `nil` when unknown (Foundation's -1).
    public var expectedContentLength: Int64? {
        if case .integer(let integer)? = item(Item.expectedLength), let length = integer.int64Value, length >= 0 {
            return length
        }
        guard isHTTP, let header = headerValue("Content-Length") else { return nil }
        let digits = header.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(digits)
    }

    private func item(_ index: Int) -> ArchivedValue? {
        items.indices.contains(index) ? items[index].value : nil
    }
}
