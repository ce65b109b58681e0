import Foundation
import ResumeDataCodec

/// One row of nsurlsessiond's `session_tasks`, decoded: who made the task, what it asked for,
/// what the server answered, how far it got and where its partial file is.
///
/// Every field that the row may lack, or that did not decode, is `nil`; ``notes`` says which
/// values could not be read (a row whose archives are corrupt is not a task: see ``TaskLedger``).
public struct LedgerTask: Sendable {
    /// `task_kind` (CFNetwork's init methods; spec §1.3).
    public enum Kind: Sendable, Hashable {
        /// The values 0 to 5 in the spec's order: download, upload and data tasks, an
        /// `AVAssetDownloadTask`, and the two `AVAggregateAssetDownloadTask` kinds.
        case download, upload, data, avAssetDownload, avAggregateChild, avAggregateNoChild
        /// A value the spec does not name.
        case other(Int64)

        init(_ value: Int64) {
            switch value {
            case 0: self = .download
            case 1: self = .upload
            case 2: self = .data
            case 3: self = .avAssetDownload
            case 4: self = .avAggregateChild
            case 5: self = .avAggregateNoChild
            default: self = .other(value)
            }
        }

        /// `download`, `upload`, `data`, `av-asset-download`, `av-aggregate-child`,
        /// `av-aggregate-no-child`, or `kind <n>`.
        public var name: String {
            switch self {
            case .download: "download"
            case .upload: "upload"
            case .data: "data"
            case .avAssetDownload: "av-asset-download"
            case .avAggregateChild: "av-aggregate-child"
            case .avAggregateNoChild: "av-aggregate-no-child"
            case .other(let value): "kind \(value)"
            }
        }
    }

    /// `state`: `NSURLSessionTaskState`.
    public enum State: Sendable, Hashable {
        /// `URLSessionTask.State`'s raw values 0 to 3.
        case running, suspended, canceling, completed
        /// A value the spec does not name.
        case other(Int64)

        init(_ value: Int64) {
            switch value {
            case 0: self = .running
            case 1: self = .suspended
            case 2: self = .canceling
            case 3: self = .completed
            default: self = .other(value)
            }
        }

        /// `running`, `suspended`, `canceling`, `completed`, or `state <n>`.
        public var name: String {
            switch self {
            case .running: "running"
            case .suspended: "suspended"
            case .canceling: "canceling"
            case .completed: "completed"
            case .other(let value): "state \(value)"
            }
        }
    }

    /// The SQLite `rowid`, which says in what order rows were written.
    public var rowID: Int64
    /// `bundle_id`: the client app.
    public var bundleID: String?
    /// `session_id`: the background configuration's identifier.
    public var sessionID: String
    /// `identifier`: the task identifier, unique only within its session.
    public var identifier: Int64
    /// `unique_identifier` (16 raw bytes), as a UUID string.
    public var uniqueIdentifier: String?
    /// `task_kind`, when the row has one.
    public var kind: Kind?
    /// `state`, when the row has one.
    public var state: State?
    /// `task_description`.
    public var taskDescription: String?
    /// `creation_time`, seconds since 2001-01-01 (spec §1.3: AV tasks certainly, others assumed).
    public var creationTime: Date?
    /// `earliest_begin_date`, seconds since 1970; `nil` for 0.0 (none).
    public var earliestBeginDate: Date?

    /// Which archived request the request fields come from: `current_request`, else `original_request`.
    public var requestColumn: String?
    /// The URL of that request.
    public var url: String?
    /// The HTTP method of that request.
    public var method: String?
    /// The header fields of that request, in archive order.
    public var requestHeaders: [(name: String, value: String)] = []
    /// The byte count of that request's body, when it has one.
    public var requestBodySize: Int?
    /// The original request's URL, when it differs from ``url`` (a redirect).
    public var originalURL: String?

    /// The archived response's status code.
    public var statusCode: Int64?
    /// The archived response's `ETag`.
    public var entityTag: String?
    /// The archived response's `Last-Modified`.
    public var lastModified: String?
    /// The archived response's expected length.
    public var expectedContentLength: Int64?

    /// The archived `error`.
    public var error: ArchivedError?

    /// `count_of_bytes_received`.
    public var bytesReceived: Int64?
    /// `count_of_bytes_expected_to_receive` (-1: unknown).
    public var bytesExpected: Int64?

    /// The partial file the row names, if any.
    public var partialFile: LedgerPartialFile?

    /// The upload's resume state (`resumable_upload_data`), when the row has one that reads.
    public var upload: UploadResumeData?

    /// Values of this row that could not be read, each `column: why`.
    public var notes: [String] = []

    /// The request headers the way a rebuilt request carries them again: without `Range` and
    /// `If-Range`, which the rebuilt request sets itself.
    var headersForResuming: [(name: String, value: String)] {
        requestHeaders.filter { header in
            !header.name.equalsIgnoringASCIICaseInLedger("Range") && !header.name.equalsIgnoringASCIICaseInLedger("If-Range")
        }
    }
}

extension String {
    /// ASCII case-insensitive equality (header names).
    func equalsIgnoringASCIICaseInLedger(_ other: String) -> Bool {
        self.utf8.count == other.utf8.count
            && zip(self.utf8, other.utf8).allSatisfy { a, b in
                let lowerA = (0x41...0x5A).contains(a) ? a | 0x20 : a
                let lowerB = (0x41...0x5A).contains(b) ? b | 0x20 : b
                return lowerA == lowerB
            }
    }
}

extension LedgerTask {
    /// The order tasks are listed in, whichever layout of the ledger they came from: by app (a
    /// task no app is known for last), then session, identifier and row.
    static func isListedBefore(_ a: LedgerTask, _ b: LedgerTask) -> Bool {
        if a.bundleID != b.bundleID {
            guard let left = a.bundleID else { return false }
            guard let right = b.bundleID else { return true }
            return TreeWalker.byteOrder(left, right)
        }
        if a.sessionID != b.sessionID { return TreeWalker.byteOrder(a.sessionID, b.sessionID) }
        return a.identifier != b.identifier ? a.identifier < b.identifier : a.rowID < b.rowID
    }

    /// The URL, method, headers and body size of the task's current request, else its original
    /// one, with the name `columns` gives the one read (the ledger's column, or the archive's
    /// key), and the original URL where a redirect changed it.
    mutating func take(original: URLRequestArchive?, current: URLRequestArchive?, columns: (original: String, current: String)) {
        guard let request = current ?? original else { return }
        requestColumn = current != nil ? columns.current : columns.original
        url = request.urlString
        method = request.method
        requestHeaders = request.headers
        requestBodySize = request.body?.count
        if let original, current != nil, original.urlString != request.urlString { originalURL = original.urlString }
    }
}
