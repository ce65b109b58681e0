import Foundation

/// Reads and writes the Network-framework resume data of spec §6 (an XOR-ed
/// `NWURLSessionDownloadResumeInfo` archive, and WebKit's wrapper around it), mapping it onto the
/// resume dictionary of §2 that ``ResumeData`` holds:
///
/// - the requests and the response, archived inline, become stand-alone archives under
///   `NSURLSessionResumeCurrentRequest`, `…OriginalRequest` and `…Response`;
/// - `NSURLSessionDownloadURL` is the current request's URL;
/// - `tempFileName` becomes `NSURLSessionResumeInfoTempFileName` and the path of `fileURL`
///   `NSURLSessionResumeInfoLocalPath`; under WebKit's wrapper its local path takes that key and
///   the inner `tempFileName` / `fileURL` are kept under their own names, as other keys;
/// - every other key keeps its name (a consumer object's under `responseConsumerResumeInfo.<key>`),
///   numbers and booleans as they are, objects as their plain value or, with none, as a
///   stand-alone keyed archive (data).
enum NetworkResumeInfo {
    static let className = "NWURLSessionDownloadResumeInfo"
    static let baseClassName = "NWURLSessionResumeInfo"
    static let consumerClassName = "NWURLSessionResponseConsumerResumeInfo"
    static let consumerKey = "responseConsumerResumeInfo"
    /// How a consumer's key is named in the resume dictionary: `responseConsumerResumeInfo.KEY`.
    static let consumerEntryPrefix = consumerKey + "."
    static let currentRequestKey = "currentRequest"
    static let originalRequestKey = "originalRequest"
    static let responseKey = "response"
    static let fileURLKey = "fileURL"
    static let tempFileNameKey = "tempFileName"
    static let wrapperDataKey = "data"
    /// What the first eight bytes are XOR-ed with.
    static let xorKey = Array("TedLasso".utf8)

    /// The first `min(count, 8)` bytes XOR-ed with `TedLasso`; the operation is its own inverse.
    static func xored(_ data: Data) -> Data {
        var bytes = Data(data)
        for (offset, keyByte) in zip(bytes.indices, xorKey) { bytes[offset] ^= keyByte }
        return bytes
    }

    /// Whether bytes start like the XOR-ed format: the first up-to-8 bytes are a prefix of
    /// `bplist00` XOR-ed, so a truncated blob is still recognised and reported as truncated.
    static func isObscured(_ data: Data) -> Bool {
        !data.isEmpty && ResumeData.obscuredMagic.starts(with: data.prefix(8))
    }

    /// Whether an outer dictionary is WebKit's wrapper: it has `data`, or nothing but the local
    /// path (a wrapper that lost its data). No resume dictionary of §2 has a `data` key.
    static func isWrapper(_ dictionary: PropertyListDictionary) -> Bool {
        dictionary[wrapperDataKey] != nil
            || (dictionary.count == 1 && dictionary[ResumeDataKey.localPath] != nil)
    }

    // MARK: Reading

    /// Decodes an XOR-ed blob into resume-dictionary entries.
    /// What a blob decodes to: its entries, its layout, and the property-list reader's warnings
    /// (``PropertyListReader/Document/warnings``).
    typealias Decoded = (entries: PropertyListDictionary, layout: NetworkResumeLayout, warnings: [PropertyListError])

    static func decode(obscured data: Data, options: PropertyListReadOptions) throws -> Decoded {
        let document: PropertyListReader.Document
        do {
            document = try PropertyListReader(options: options).readDocument(xored(data))
        } catch let error as PropertyListError {
            throw ResumeDataError(unreadable: error)
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(document.value, options: KeyedArchiveOptions(propertyListOptions: options))
        } catch let error as KeyedArchiveError {
            if let underlying = error.underlying { throw ResumeDataError(unreadable: underlying) }
            throw ResumeDataError(.invalidArchive, "\(error)")
        }
        do {
            let decoded = try decode(archive)
            return (decoded.entries, decoded.layout, document.warnings)
        } catch let error as KeyedArchiveError {
            throw ResumeDataError(.invalidArchive, "\(error)")
        }
    }

    /// Decodes WebKit's wrapper dictionary (already unarchived).
    static func decode(wrapper: PropertyListDictionary, options: PropertyListReadOptions) throws -> Decoded {
        guard let inner = wrapper[wrapperDataKey] else {
            throw ResumeDataError(.invalidArchive, "WebKit's resume wrapper has no \(wrapperDataKey) key: the Network-framework blob it wraps is missing")
        }
        guard case .data(let bytes) = inner else {
            throw ResumeDataError(.invalidArchive, "\(wrapperDataKey): expected the XOR-ed Network-framework blob as data, found \(inner.typeName)")
        }
        guard isObscured(bytes) else {
            throw ResumeDataError(.invalidArchive, "\(wrapperDataKey): \(bytes.count) bytes that do not start as Network-framework resume data (bplist00 XOR-ed with \"TedLasso\")")
        }
        var decoded: Decoded
        do {
            decoded = try decode(obscured: bytes, options: options)
        } catch let error as ResumeDataError {
            var prefixed = error
            prefixed.reason = "\(wrapperDataKey): " + (error.locationDescription.map { "\($0): " } ?? "") + error.message
            prefixed.location = .unknown
            throw prefixed
        }
        var entries = decoded.entries
        if let path = wrapper[ResumeDataKey.localPath] {
            // The wrapper's path replaces the inner file's location; keep those under their own names.
            if let name = entries.removeValue(forKey: ResumeDataKey.tempFileName) {
                entries[tempFileNameKey] = name
            }
            if let inner = entries.removeValue(forKey: ResumeDataKey.localPath) {
                entries[fileURLKey] = inner
            }
            entries[ResumeDataKey.localPath] = path
        }
        for (key, value) in wrapper where key != wrapperDataKey && key != ResumeDataKey.localPath {
            guard entries[key] == nil else {
                throw ResumeDataError(.invalidArchive, "\(key): the wrapper and the blob inside it both have this key")
            }
            entries[key] = value
        }
        return (entries, decoded.layout, decoded.warnings)
    }

    private static func decode(_ archive: KeyedArchive) throws -> (entries: PropertyListDictionary, layout: NetworkResumeLayout) {
        let root = try archive.decodeRootObject()
        let rootPath = "$objects[\(archive.rootUID)]"
        guard root.isKind(of: className) else {
            throw KeyedArchiveError(.unexpectedClass, "the root is an \(root.className), not an \(className)", keyPath: rootPath)
        }
        var current: URLRequestArchive?
        var original: URLRequestArchive?
        var response: ArchivedURLResponse?
        var location = FileLocation()
        var others = PropertyListDictionary()
        var layout: NetworkResumeLayout = root.classChain.contains(baseClassName) ? .flat : .nested
        for field in root.fields {
            let path = "\(rootPath).\(field.key)"
            switch field.key {
            case currentRequestKey, originalRequestKey:
                guard let object = try object(field.value, keyPath: path) else { continue }
                let request = try URLRequestArchive(object: object, keyPath: path)
                if field.key == currentRequestKey { current = request } else { original = request }
            case responseKey:
                guard let object = try object(field.value, keyPath: path) else { continue }
                response = try ArchivedURLResponse(object: object, keyPath: path)
            case consumerKey:
                guard let consumer = try object(field.value, keyPath: path) else { continue }
                guard consumer.isKind(of: consumerClassName) else {
                    throw KeyedArchiveError(.unexpectedClass, "the consumer is an \(consumer.className), not an \(consumerClassName)", keyPath: path)
                }
                layout = .nested
                for inner in consumer.fields {
                    let innerPath = "\(path).\(inner.key)"
                    if try !location.take(inner, keyPath: innerPath) {
                        others[consumerEntryPrefix + inner.key] = try plainValue(inner.value, keyPath: innerPath)
                    }
                }
            default:
                // Such a name is how this reader spells a consumer's key: written back, the
                // value would move into the consumer, or overwrite the consumer's own.
                if let inner = consumerField(ofEntry: field.key) {
                    throw KeyedArchiveError(.keyConflict, "a root key named like the consumer's \(inner), which this reader calls \(field.key): the two would be confused", keyPath: path)
                }
                if try !location.take(field, keyPath: path) {
                    others[field.key] = try plainValue(field.value, keyPath: path)
                }
            }
        }

        var entries = PropertyListDictionary()
        entries[ResumeDataKey.tempFileName] = location.tempFileName.map(PropertyListValue.string)
        entries[ResumeDataKey.localPath] = location.localPath.map(PropertyListValue.string)
        entries[ResumeDataKey.downloadURL] = current?.urlString.map(PropertyListValue.string)
        entries[ResumeDataKey.currentRequest] = try current.map { .data(try $0.archiveData()) }
        entries[ResumeDataKey.originalRequest] = try original.map { .data(try $0.archiveData()) }
        entries[ResumeDataKey.response] = try response.map { .data(try $0.archiveData()) }
        for (key, value) in location.leftovers { others[key] = value }
        for (key, value) in others {
            // The format has no such key; one would pass for the value its name promises.
            guard entries[key] == nil, !ResumeDataKey.known.contains(key) else {
                throw KeyedArchiveError(.keyConflict, "a Network-framework blob has no key of this name: it would be read as the resume-dictionary key", keyPath: "\(rootPath).\(key)")
            }
            entries[key] = value
        }
        return (entries, layout)
    }

    /// The consumer's key that a resume-dictionary entry named `responseConsumerResumeInfo.KEY`
    /// stands for; `nil` for any other entry.
    static func consumerField(ofEntry key: String) -> String? {
        key.hasPrefix(consumerEntryPrefix) ? String(key.dropFirst(consumerEntryPrefix.count)) : nil
    }

    /// `tempFileName` and `fileURL`, wherever the layout puts them.
    private struct FileLocation {
        var tempFileName: String?
        var localPath: String?
        /// Values of those keys that do not fit (a `fileURL` that is not a file URL, …), kept.
        var leftovers = PropertyListDictionary()

        private var taken: Set<String> = []

        private mutating func take(fileURL text: String) {
            if let path = NetworkResumeInfo.localPath(ofFileURL: text) {
                localPath = path
            } else {
                leftovers[NetworkResumeInfo.fileURLKey] = .string(text)
            }
        }

        /// Takes the field if it is one of the two; `false` for any other key.
        mutating func take(_ field: ArchivedObject.Field, keyPath: String) throws -> Bool {
            guard field.key == NetworkResumeInfo.tempFileNameKey || field.key == NetworkResumeInfo.fileURLKey else { return false }
            // Both on the root and in the consumer: which one a device uses is unknown.
            guard taken.insert(field.key).inserted else {
                throw KeyedArchiveError(.keyConflict, "\(field.key) appears both on the root object and in \(NetworkResumeInfo.consumerKey)", keyPath: keyPath)
            }
            // Matched by value, stored inline or by reference: the format archives both as
            // objects, but anything that reads as the right type is taken as it.
            switch (field.key, field.value.value) {
            case (NetworkResumeInfo.tempFileNameKey, .string(let name)?):
                tempFileName = name
            case (NetworkResumeInfo.fileURLKey, .url(let url)?):
                take(fileURL: url.absoluteString)
            case (NetworkResumeInfo.fileURLKey, .string(let text)?):
                take(fileURL: text)
            case (_, .null?):
                break
            default:
                leftovers[field.key] = try NetworkResumeInfo.plainValue(field.value, keyPath: keyPath)
            }
            return true
        }
    }

    /// The path of a `file:` URL that writing back as ``fileURL(forPath:)`` reproduces; `nil`
    /// for anything else (another scheme, a relative path), which is kept as the URL string.
    static func localPath(ofFileURL text: String) -> String? {
        guard let url = URL(string: text), url.isFileURL else { return nil }
        let path = url.path
        guard path.hasPrefix("/"), URL(string: fileURL(forPath: path))?.path == path else { return nil }
        return path
    }

    /// The `file:` URL string of an absolute path (no file-system lookup: a blob's path names
    /// a file on another device).
    static func fileURL(forPath path: String) -> String {
        URL(fileURLWithPath: path, isDirectory: false).absoluteString
    }

    /// The object a field refers to; `nil` for nil.
    private static func object(_ field: ArchivedObject.FieldValue, keyPath: String) throws -> ArchivedObject? {
        switch field {
        case .reference(.null): return nil
        case .reference(.object(let object)): return object
        default:
            throw KeyedArchiveError(.unexpectedType, "\(field) is not an archived object", keyPath: keyPath)
        }
    }

    /// A field as a property-list value: inline values as they are, objects as their plain value
    /// or, with none (an NSURL, an object of another class), as a stand-alone keyed archive;
    /// `nil` for nil, which a property list cannot hold (the key is then left out).
    private static func plainValue(_ field: ArchivedObject.FieldValue, keyPath: String) throws -> PropertyListValue? {
        if case .inline(let value) = field { return value }
        guard let value = field.value else {
            throw KeyedArchiveError(.unexpectedType, "\(field) has no value", keyPath: keyPath)
        }
        if case .null = value { return nil }
        if let plain = try? value.plainValue() { return plain }
        return .data(try KeyedArchive(encoding: value, topKey: KeyedArchive.rootKey).data(format: .binary))
    }

    // MARK: Writing

    /// Encodes resume-dictionary entries as an XOR-ed blob, or wrapped as WebKit does.
    static func encode(_ resume: ResumeData, layout: NetworkResumeLayout, webKit: Bool) throws -> Data {
        let entries = resume.entries
        var rootFields: [ArchivedObject.Field] = []
        if let original = try resume.request(.original) {
            rootFields.append(.init(key: originalRequestKey, value: .reference(.object(try original.archivedObject()))))
        }
        if let current = try resume.request(.current) {
            rootFields.append(.init(key: currentRequestKey, value: .reference(.object(try current.archivedObject()))))
        } else if let url = resume.downloadURL.flatMap(URL.init(string:)) {
            // As Apple's reader does for a classic blob without requests (spec §2).
            let request = URLRequestArchive(url: url, cachePolicy: 1)
            rootFields.append(.init(key: currentRequestKey, value: .reference(.object(try request.archivedObject()))))
        }
        let response = try resume.archivedResponse()
        if let response {
            rootFields.append(.init(key: responseKey, value: .reference(.object(try response.archivedObject()))))
        }
        if let tag = resume.entityTag, tag != response?.entityTag {
            throw ResumeDataError(.unencodable, "\(ResumeDataKey.entityTag): the Network-framework format keeps the validator only in the response's ETag header, and this blob's response \(response == nil ? "is missing" : "has another one")")
        }
        if let date = resume.serverDownloadDate, date != response?.lastModified {
            throw ResumeDataError(.unencodable, "\(ResumeDataKey.serverDownloadDate): the Network-framework format keeps the validator only in the response's Last-Modified header, and this blob's response \(response == nil ? "is missing" : "has another one")")
        }

        var locationFields: [ArchivedObject.Field] = []
        var consumerOthers: [ArchivedObject.Field] = []
        func url(_ text: String) -> ArchivedObject.FieldValue { .reference(.url(ArchivedURL(relativeString: text))) }
        if !webKit, let path = resume.localPath {
            // A relative path has no file URL of its own: it is written as it is.
            locationFields.append(.init(key: fileURLKey, value: url(path.hasPrefix("/") ? fileURL(forPath: path) : path)))
        } else if let value = entries[fileURLKey] {
            // Under the wrapper, an absolute path here is the inner file's (see decode(wrapper:)).
            switch value {
            case .string(let text) where webKit && text.hasPrefix("/"): locationFields.append(.init(key: fileURLKey, value: url(fileURL(forPath: text))))
            case .string(let text): locationFields.append(.init(key: fileURLKey, value: url(text)))
            default: locationFields.append(.init(key: fileURLKey, value: try fieldValue(value, keyPath: fileURLKey)))
            }
        }
        if let name = resume.tempFileName {
            locationFields.append(.init(key: tempFileNameKey, value: .reference(.string(name))))
        } else if let value = entries[tempFileNameKey] {
            locationFields.append(.init(key: tempFileNameKey, value: try fieldValue(value, keyPath: tempFileNameKey)))
        }
        let classicOnly = ResumeDataKey.known.union([fileURLKey, tempFileNameKey])
        let structural: Set<String> = [currentRequestKey, originalRequestKey, responseKey, consumerKey, fileURLKey, tempFileNameKey]
        for (key, value) in entries where !classicOnly.contains(key) {
            let inner = consumerField(ofEntry: key)
            let name = inner ?? key
            // Written under such a name, the value would be read back as the format's own.
            guard !structural.contains(name) else {
                throw ResumeDataError(.unencodable, "\(key): the Network-framework format uses the name \(name) for its own \(name)")
            }
            let field = ArchivedObject.Field(key: name, value: try fieldValue(value, keyPath: key))
            if inner != nil { consumerOthers.append(field) } else { rootFields.append(field) }
        }
        let chain: [String]
        switch layout {
        case .nested:
            let consumer = ArchivedObject(className: consumerClassName, classChain: [consumerClassName, "NSObject"], fields: locationFields + consumerOthers)
            rootFields.append(.init(key: consumerKey, value: .reference(.object(consumer))))
            chain = [className, "NSObject"]
        case .flat:
            rootFields += locationFields + consumerOthers
            chain = [className, baseClassName, "NSObject"]
        }
        let root = ArchivedObject(className: className, classChain: chain, fields: rootFields)
        let blob = xored(try KeyedArchive(encoding: .object(root), topKey: KeyedArchive.rootKey).data(format: .binary))
        guard webKit else { return blob }
        var wrapper = PropertyListDictionary()
        wrapper[wrapperDataKey] = .data(blob)
        wrapper[ResumeDataKey.localPath] = entries[ResumeDataKey.localPath]
        return try PropertyListWriter().write(KeyedArchive.encodeDictionary(wrapper), as: .binary)
    }

    /// Numbers and booleans inline (`encodeInt64:`, `encodeDouble:`, `encodeBool:`), the rest as objects.
    private static func fieldValue(_ value: PropertyListValue, keyPath: String) throws -> ArchivedObject.FieldValue {
        switch value {
        case .integer, .real, .boolean: .inline(value)
        default: .reference(try ArchivedValue.fromPlain(value, keyPath: keyPath))
        }
    }

    // MARK: Classic containers

    /// The entries for a classic container: validators from the response into their keys when
    /// the blob has none, and an info version.
    static func classicEntries(of resume: ResumeData) -> PropertyListDictionary {
        var copy = resume
        if copy.entityTag == nil, let tag = resume.response?.entityTag { copy.entityTag = tag }
        if copy.serverDownloadDate == nil, let date = resume.response?.lastModified { copy.serverDownloadDate = date }
        if copy.infoVersion == nil { copy.infoVersion = 4 }
        return copy.entries
    }
}
