import ResumeDataCodec

/// Where a download stands.
public enum DownloadState: Equatable, Sendable {
    /// Waiting for a free slot in the queue.
    case queued
    /// Requesting or receiving.
    case running
    /// Stopped by ``DownloadTask/pause()``; the resume blob is on disk.
    case paused
    /// The destination holds the verified file.
    case completed
    /// Stopped by ``DownloadTask/cancel(removeFile:)``.
    case cancelled
    /// Stopped by an error; the partial file and blob are kept unless the error says otherwise.
    case failed(TransferError)
}

/// A progress snapshot.
public struct DownloadProgress: Equatable, Sendable {
    /// Bytes of the file written so far.
    public var bytesWritten: Int64
    /// The file's length, when the server announced it.
    public var totalBytes: Int64?
    /// Recent speed.
    public var bytesPerSecond: Double
    /// Seconds left at the recent speed, when it can be estimated.
    public var secondsRemaining: Double?
}

/// Why a download started over from zero.
public enum RestartReason: String, Equatable, Sendable {
    /// The server sent the whole file to a range request, under the validators and length of
    /// the file partly downloaded: it does not serve byte ranges (Python's `http.server`, some
    /// proxies). Nothing on disk was wrong; every resume from this server starts over.
    case rangesIgnored = "ranges-ignored"
    /// The server serves another file now: its ETag, Last-Modified or length changed, it refused
    /// `If-Range`, or the bytes it sent again differ from those on disk.
    case fileChanged = "file-changed"
}

/// What a running download reports.
public enum DownloadEvent: Equatable, Sendable {
    /// New state.
    case state(DownloadState)
    /// Bytes arrived (sent at most about ten times a second).
    case progress(DownloadProgress)
    /// The bytes on disk could not be continued, for the reason given: starting over from zero.
    case restarted(RestartReason)
    /// Something the user should know that does not stop the download: a path in a resume blob
    /// that was ignored, a blob for another URL that was set aside.
    case warning(String)
    /// An attempt failed and another follows after `delay`.
    case retrying(attempt: Int, delay: Duration, reason: TransferError)
    /// A request about to be sent, with every header of the caller and the engine (only with
    /// ``DownloadConfiguration/reportsHeads``). Credentials are in it, unmasked.
    case requestHead(method: String, url: HTTPURL, headers: [HTTPHeaderField])
    /// A response's status and header fields (only with ``DownloadConfiguration/reportsHeads``).
    case responseHead(status: Int, headers: [HTTPHeaderField])
}
