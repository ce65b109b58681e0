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
