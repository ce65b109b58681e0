import Foundation

/// Where an upload's body comes from, as an upload blob's `bodyType` says.
public enum UploadBody: Sendable, Hashable {
    /// `bodyType` 0: the whole body is in the blob (`uploadData`); nil when the key is missing.
    case data(Data?)
    /// `bodyType` 1: a file on the device that made the blob (`uploadFile`); nil when missing.
    case file(ArchivedURL?)
    /// `bodyType` 2: a stream the app supplies again from the server's offset; its length when
    /// the blob has one (`streamLength`).
    case stream(length: Int64?)
    /// A `bodyType` CFNetwork refuses (anything but 0, 1 or 2), or none at all (nil).
    case unknown(Int64?)

    /// The name `inspect` shows: `data`, `file`, `stream`, `unknown`.
    public var name: String {
        switch self {
        case .data: "data"
        case .file: "file"
        case .stream: "stream"
        case .unknown: "unknown"
        }
    }
}

extension UploadBody {
    /// What a body recorded in a blob says of a file offered to continue it (`resume UPLOADBLOB
    /// --file`), where the blob has no identity record of its own (a device's).
    package enum FileVerdict: Sendable, Equatable {
        /// The file is the body: a data body's very bytes.
        case matches
        /// The blob cannot tell: a file body names a path on the device, a stream's length agrees
        /// (or is not recorded) but its bytes were never in the blob.
        case unknowable
        /// The file cannot be the body; why, naming both sizes or the bytes.
        case differs(String)
    }

    /// The verdict for a file of `size` bytes; `bytes` gives the file's contents and is asked
    /// only for a data body of the same size, so a large file is never read for nothing.
    package func verdict<Failure: Error>(forFileOf size: Int64, bytes: () throws(Failure) -> Data) throws(Failure) -> FileVerdict {
        switch self {
        case .data(let body?):
            guard Int64(body.count) == size else {
                return .differs("the file has \(size) bytes, and the blob's body (uploadData) has \(body.count)")
            }
            return try bytes() == body ? .matches : .differs("the file's bytes are not the blob's body (uploadData, \(body.count) bytes)")
        case .stream(let length?) where length != size:
            return .differs("the file has \(size) bytes, and the blob's stream (streamLength) had \(length)")
        case .data(nil), .file, .stream, .unknown:
            return .unknowable
        }
    }
}
