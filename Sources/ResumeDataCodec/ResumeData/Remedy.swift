/// What mends a finding, as a value.
///
/// The library says *what* would mend a blob; how a person asks for it (a `resumetool` command,
/// a button, a call to ``ResumeData/repaired(for:)``) is the front end's to spell. resumetool's
/// reports spell each case as the command that does it.
public enum Remedy: Sendable, Hashable {
    /// Repair the blob for a system (``ResumeData/repaired(for:)``), or, with `nil`, the repairs
    /// that suit every system (a byte count the request's `Range` disagrees with, a key twice).
    case repair(RepairTarget?)
    /// Point the blob at the partial file's name now (``ResumeData/relocated(tempFileName:)``).
    case relocateTempFile
    /// Give the blob another download URL: the one it has is wrong, or no longer served.
    case editURL
    /// Make a new blob from the partial file and the server's validator of this kind, for the
    /// download URL (nil when the blob has no usable one).
    case rebuild(url: HTTPURL?, validator: Validator)
    /// Point an upload blob's file body at the file as it is named now (its `uploadFile`).
    case editUploadFile
    /// Continue an upload blob with the file it uploads: the server is asked for its offset and
    /// the rest is sent, or, when the server forgot the upload, the whole file is sent again.
    case resumeUpload

    /// The validator a rebuilt blob needs from the server.
    public enum Validator: Sendable, Hashable {
        /// The server's `ETag`.
        case entityTag
        /// The server's `Last-Modified`.
        case lastModified
    }
}
