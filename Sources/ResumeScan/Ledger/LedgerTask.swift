import Foundation
import ResumeDataCodec

/// One row of nsurlsessiond's `session_tasks`, decoded: who made the task, what it asked for,
/// what the server answered, how far it got and where its partial file is.
///
/// Every field that the row may lack, or that did not decode, is `nil`; ``notes`` says which
/// values could not be read (a row whose archives are corrupt is not a task: see ``TaskLedger``).
package struct LedgerTask: Sendable {
    /// `task_kind` (CFNetwork's init methods; spec §1.3).
    package enum Kind: Sendable, Hashable {
        case download, upload, data, avAssetDownload, avAggregateChild, avAggregateNoChild
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
        package var name: String {
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
    package enum State: Sendable, Hashable {
        case running, suspended, canceling, completed
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
        package var name: String {
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
    package var rowID: Int64
    /// `bundle_id`: the client app.
    package var bundleID: String?
    /// `session_id`: the background configuration's identifier.
    package var sessionID: String
    /// `identifier`: the task identifier, unique only within its session.
    package var identifier: Int64
    /// `unique_identifier` (16 raw bytes), as a UUID string.
    package var uniqueIdentifier: String?
    package var kind: Kind?
    package var state: State?
    /// `task_description`.
    package var taskDescription: String?
    /// `creation_time`, seconds since 2001-01-01 (spec §1.3: AV tasks certainly, others assumed).
    package var creationTime: Date?
    /// `earliest_begin_date`, seconds since 1970; `nil` for 0.0 (none).
    package var earliestBeginDate: Date?

    /// Which archived request the request fields come from: `current_request`, else `original_request`.
    package var requestColumn: String?
    /// The URL of that request.
    package var url: String?
    /// The HTTP method of that request.
    package var method: String?
    /// The header fields of that request, in archive order.
    package var requestHeaders: [(name: String, value: String)] = []
    /// The byte count of that request's body, when it has one.
    package var requestBodySize: Int?
    /// The original request's URL, when it differs from ``url`` (a redirect).
    package var originalURL: String?

    /// The archived response's status code.
    package var statusCode: Int64?
    /// The archived response's `ETag`.
    package var entityTag: String?
    /// The archived response's `Last-Modified`.
    package var lastModified: String?
    /// The archived response's expected length.
    package var expectedContentLength: Int64?

    /// The archived `error`.
    package var error: ArchivedError?

    /// `count_of_bytes_received`.
    package var bytesReceived: Int64?
    /// `count_of_bytes_expected_to_receive` (-1: unknown).
    package var bytesExpected: Int64?

    /// The partial file the row names, if any.
    package var partialFile: LedgerPartialFile?

    /// The upload's resume state (`resumable_upload_data`), when the row has one that reads.
    package var upload: UploadResumeData?

    /// Values of this row that could not be read, each `column: why`.
    package var notes: [String] = []

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
