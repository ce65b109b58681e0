/// Why a resumable upload stopped. The checkpoint on disk stays the last good one in every case:
/// running the same command again asks the server how much it has and goes on from there.
package enum UploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What a download would also stop on (the one ``TransferError``): the connection, TLS, a
    /// status, retries run out, a disk.
    case transfer(TransferError)
    /// The server claims more bytes than the file has.
    case offsetBeyondFile(offset: Int64, size: Int64)
    /// The server claims more bytes than were ever sent to it in this run.
    case offsetBeyondSent(offset: Int64, sent: Int64)
    /// The server says the upload is complete at a length other than the file's.
    case completeAtOtherLength(offset: Int64, size: Int64)
    /// The server's answer to the offset request breaks the draft (a missing or malformed field).
    case malformedAnswer(String)
    /// The server forgot the upload (404/410) more often than a fresh start is tried.
    case tooManyRestarts(Int)
    /// The server forgot the upload (its status), and the blob has no original request to create
    /// it again with (nsurlsessiond's copy).
    case cannotCreateAgain(status: Int)
    /// The file is outside the sizes the server's `Upload-Limit` allows (``UploadLimit``).
    case beyondServerLimit(String)
    /// The file is not the one the upload started with, or it changed while it was sent.
    case fileChanged(String)
    /// The file cannot be opened or read.
    case unreadableFile(String)
    /// The checkpoint (blob or identity) cannot be read, or written.
    case checkpoint(String)

    package var description: String {
        switch self {
        case .transfer(let error): error.description
        case .offsetBeyondFile(let offset, let size):
            "the server says it has \(offset) bytes of a \(size)-byte file: refusing to go on"
        case .offsetBeyondSent(let offset, let sent):
            "the server says it has \(offset) bytes, but only \(sent) were sent to it: refusing to go on"
        case .completeAtOtherLength(let offset, let size):
            "the server says the upload is complete at \(offset) bytes, but the file has \(size)"
        case .malformedAnswer(let reason): "the server's offset answer breaks the draft: \(reason)"
        case .tooManyRestarts(let count): "the server forgot the upload \(count) times (404/410 on its resume URL): giving up"
        case .cannotCreateAgain(let status):
            "the server no longer has the upload (HTTP \(status)), and the blob has no original request to create it again"
        case .beyondServerLimit(let reason): reason
        case .fileChanged(let reason): "the file changed: \(reason)"
        case .unreadableFile(let reason): "cannot read the file: \(reason)"
        case .checkpoint(let reason): "upload checkpoint: \(reason)"
        }
    }
}
