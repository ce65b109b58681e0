import Foundation

/// URLSession's *upload* resume data (iOS 17+, macOS 14+): what
/// `URLSessionUploadTask.cancel(byProducingResumeData:)` and `URLError.uploadTaskResumeData`
/// give, and nsurlsessiond keeps in `resumable_upload_data`.
///
/// An NSKeyedArchiver binary property list of one dictionary (``UploadResumeKey``) whose first
/// eight bytes are XOR-ed with a constant of Apple's. The constant has not been published, so a
/// reader writes `bplist00` over those bytes instead, which gives the blob's own ``mask``; a
/// writer must take the mask from a real blob. The blob holds no byte offset: a client asks the
/// server how much it has (the resumable-upload draft's `HEAD`), then appends.
public struct UploadResumeData: Sendable, Hashable {
    /// The eight bytes the blob's first eight were XOR-ed with (its first eight XOR `bplist00`);
    /// all zero when the blob starts `bplist00`, which URLSession's reader does not accept.
    public var mask: [UInt8]
    /// The archived dictionary's entries, in the archive's order, unknown keys included.
    public var entries: [ArchivedValue.DictionaryEntry]

    /// Creates upload resume data from its dictionary's entries and the mask it was read with.
    init(entries: [ArchivedValue.DictionaryEntry], mask: [UInt8]) {
        self.entries = entries
        self.mask = mask
    }

    /// The value under `key`, the first when a broken archive repeats it.
    public subscript(key: String) -> ArchivedValue? {
        entries.first { $0.key == key }?.value
    }

    /// `draftVersion` when it is a string.
    public var draftVersion: String? { self[UploadResumeKey.draftVersion]?.stringValue }

    /// `resumeURL` when it is an `NSURL`.
    public var resumeURL: ArchivedURL? { self[UploadResumeKey.resumeURL]?.urlValue }

    /// `bodyType` when it is an integer.
    public var bodyType: Int64? { self[UploadResumeKey.bodyType]?.integerValue?.int64Value }

    /// The body the blob describes, from `bodyType` and the key that type requires.
    public var body: UploadBody {
        switch bodyType {
        case 0?: .data(self[UploadResumeKey.uploadData]?.dataValue)
        case 1?: .file(self[UploadResumeKey.uploadFile]?.urlValue)
        case 2?: .stream(length: self[UploadResumeKey.streamLength]?.integerValue?.int64Value)
        case let other: .unknown(other)
        }
    }

    /// The request that created the upload; nil when the blob has none (nsurlsessiond's copy).
    /// - Throws: ``KeyedArchiveError`` when `originalRequest` is not a request archive.
    public func originalRequest() throws -> URLRequestArchive? {
        let path = "$top.root.\(UploadResumeKey.originalRequest)"
        switch self[UploadResumeKey.originalRequest] {
        case nil, .null?: return nil
        case .object(let object)?: return try URLRequestArchive(object: object, keyPath: path)
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "\(other.kindName) is not an archived NSURLRequest", keyPath: path)
        }
    }

    /// The entries whose keys CFNetwork does not write.
    public var otherEntries: [ArchivedValue.DictionaryEntry] {
        entries.filter { !UploadResumeKey.known.contains($0.key) }
    }
}
