import Foundation

/// NSURLSession resume data: the resume dictionary and the container it came in.
///
/// The dictionary is kept whole, in its order, so keys this type has no field for are preserved
/// and written back untouched; the typed properties read and write it. Reading accepts the four
/// containers of spec §1; ``encoded(as:)`` writes any of them.
///
/// ```swift
/// let resume = try ResumeData(data: blob)
/// print(resume.container, resume.downloadURL ?? "-", resume.bytesReceived ?? 0)
/// let fixed = try resume.encoded(as: .keyedArchive)
/// ```
public struct ResumeData: Sendable, Hashable {
    /// Which of the two archived requests.
    public enum RequestKind: String, Sendable, Hashable, CaseIterable {
        /// `NSURLSessionResumeCurrentRequest`: the request to continue with.
        case current
        /// `NSURLSessionResumeOriginalRequest`: the request the task was created with.
        case original

        /// The resume-dictionary key holding this request.
        public var key: String {
            switch self {
            case .current: ResumeDataKey.currentRequest
            case .original: ResumeDataKey.originalRequest
            }
        }
    }

    /// The container the blob was read from, or the one chosen for a new blob.
    public var container: ResumeDataContainer
    /// The whole resume dictionary, in its order.
    public var entries: PropertyListDictionary
    /// For blobs read from the Network-framework format, its layout; written back in it (a
    /// blob of another container is written in the ``NetworkResumeLayout/flat`` layout).
    package var networkLayout: NetworkResumeLayout?
    /// What reading accepted that strict reading refuses (keys given twice, the last value kept),
    /// with positions and key paths; empty for a blob made here. Not part of the value.
    public internal(set) var readWarnings: [PropertyListError] = []

    /// Decoded requests, not part of the value (see ``==(_:_:)``).
    private let requestMemo = RequestArchiveMemo()

    /// Creates resume data from a dictionary.
    public init(entries: PropertyListDictionary = PropertyListDictionary(), container: ResumeDataContainer = .keyedArchive) {
        self.entries = entries
        self.container = container
    }

    // MARK: Typed fields (spec §2)

    /// `NSURLSessionDownloadURL`, when present and a string.
    public var downloadURL: String? {
        get { entries[ResumeDataKey.downloadURL]?.stringValue }
        set { entries[ResumeDataKey.downloadURL] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeBytesReceived`, when present and an integer.
    public var bytesReceived: Int64? {
        get { entries[ResumeDataKey.bytesReceived]?.int64Value }
        set { entries[ResumeDataKey.bytesReceived] = newValue.map { .integer(PropertyListInteger($0)) } }
    }

    /// `NSURLSessionResumeInfoTempFileName`, when present and a string.
    public var tempFileName: String? {
        get { entries[ResumeDataKey.tempFileName]?.stringValue }
        set { entries[ResumeDataKey.tempFileName] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeInfoLocalPath`, when present and a string.
    public var localPath: String? {
        get { entries[ResumeDataKey.localPath]?.stringValue }
        set { entries[ResumeDataKey.localPath] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeEntityTag`, the raw `ETag` value, when present and a string.
    public var entityTag: String? {
        get { entries[ResumeDataKey.entityTag]?.stringValue }
        set { entries[ResumeDataKey.entityTag] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeServerDownloadDate`, the raw `Last-Modified` value, when present and a string.
    public var serverDownloadDate: String? {
        get { entries[ResumeDataKey.serverDownloadDate]?.stringValue }
        set { entries[ResumeDataKey.serverDownloadDate] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeByteRange`, when present and a string.
    public var byteRange: String? {
        get { entries[ResumeDataKey.byteRange]?.stringValue }
        set { entries[ResumeDataKey.byteRange] = newValue.map(PropertyListValue.string) }
    }

    /// `NSURLSessionResumeInfoVersion`, when present and an integer.
    public var infoVersion: Int64? {
        get { entries[ResumeDataKey.infoVersion]?.int64Value }
        set { entries[ResumeDataKey.infoVersion] = newValue.map { .integer(PropertyListInteger($0)) } }
    }

    /// The current request, or `nil` when absent or undecodable (see ``request(_:)``).
    public var currentRequest: URLRequestArchive? { try? request(.current) }

    /// The original request, or `nil` when absent or undecodable (see ``request(_:)``).
    public var originalRequest: URLRequestArchive? { try? request(.original) }

    /// Decodes one of the archived requests.
    /// - Returns: `nil` when the key is absent.
    /// - Throws: ``ResumeDataError`` (`invalid-request`) naming the key and the object at fault.
    public func request(_ kind: RequestKind) throws -> URLRequestArchive? {
        guard let value = entries[kind.key] else { return nil }
        guard case .data(let bytes) = value else {
            throw ResumeDataError(.invalidRequest, "\(kind.key): expected data, found \(value.typeName)")
        }
        return try requestMemo.request(kind, bytes: bytes) {
            do {
                return .success(try URLRequestArchive(archiveData: bytes))
            } catch {
                return .failure(ResumeDataError(.invalidRequest, "\(kind.key): \(error)"))
            }
        }.get()
    }

    /// Decodes the archived response, `NSURLSessionResumeResponse` (spec §6a).
    /// - Returns: `nil` when the key is absent.
    /// - Throws: ``ResumeDataError`` (`invalid-response`) naming the key and the object at fault.
    public func archivedResponse() throws -> ArchivedURLResponse? {
        guard let value = entries[ResumeDataKey.response] else { return nil }
        guard case .data(let bytes) = value else {
            throw ResumeDataError(.invalidResponse, "\(ResumeDataKey.response): expected data, found \(value.typeName)")
        }
        do {
            return try ArchivedURLResponse(archiveData: bytes)
        } catch {
            throw ResumeDataError(.invalidResponse, "\(ResumeDataKey.response): \(error)")
        }
    }

    /// The archived response, or `nil` when absent or undecodable (see ``archivedResponse()``).
    public var response: ArchivedURLResponse? { try? archivedResponse() }

    /// The entity tag to resume with: `NSURLSessionResumeEntityTag`, else the response's `ETag`
    /// (the only place the Network-framework format keeps it).
    public var effectiveEntityTag: String? { entityTag ?? response?.entityTag }

    /// The server date to resume with: `NSURLSessionResumeServerDownloadDate`, else the
    /// response's `Last-Modified`.
    public var effectiveServerDownloadDate: String? { serverDownloadDate ?? response?.lastModified }

    /// The file's full size when the blob knows it: the response's expected length, else a
    /// positive `countOfBytesClientExpectsToReceive` (Network-framework blobs).
    public var expectedTotalBytes: Int64? {
        if let length = response?.expectedContentLength { return length }
        if let expected = entries["countOfBytesClientExpectsToReceive"]?.int64Value, expected > 0 { return expected }
        return nil
    }

    /// Replaces (or with `nil` removes) one of the archived requests, archived in its own layout.
    package mutating func setRequest(_ request: URLRequestArchive?, _ kind: RequestKind) throws {
        guard let request else {
            entries[kind.key] = nil
            return
        }
        do {
            entries[kind.key] = .data(try request.archiveData())
        } catch {
            throw ResumeDataError(.unencodable, "\(kind.key): \(error)")
        }
    }

    /// Equal when the container, the entries and the network layout are (a keyed archive's top
    /// key is not kept: see ``encoded(as:)``).
    public static func == (lhs: ResumeData, rhs: ResumeData) -> Bool {
        lhs.container == rhs.container && lhs.entries == rhs.entries && lhs.networkLayout == rhs.networkLayout
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(container)
        hasher.combine(entries)
        hasher.combine(networkLayout)
    }

    /// The entries that have no typed field, in their order.
    package var otherEntries: PropertyListDictionary {
        var others = PropertyListDictionary()
        for (key, value) in entries where !ResumeDataKey.known.contains(key) { others[key] = value }
        return others
    }
}
