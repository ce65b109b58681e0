/// Why a transfer stopped: the one error that downloads and uploads share, as `URLError` is
/// for every URLSession task. The connection, TLS, a name that does not resolve, time limits,
/// statuses, redirects, proxies, retries, the disk and cancelling are said in the same words
/// whichever command and transport met them; a download's own cases (its destination, its
/// ranges and length, its checksum) are marked so. An upload's own reasons are
/// `UploadError`'s, which carries this error for everything else.
///
/// After a download's error the partial file and the resume blob stay valid in every case but
/// ``checksumMismatch(expected:actual:)``, whose bytes are complete but wrong.
public indirect enum TransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an absolute http or https URL.
    case invalidURL(String)
    /// The server answered a status that cannot be continued (404, 403, ...).
    case unexpectedStatus(Int)
    /// More redirects than allowed.
    case tooManyRedirects(Int)
    /// A redirect without a usable `Location` (missing, not http or https).
    case invalidRedirect(String)
    /// A redirect from https to http, which the configuration does not allow.
    case insecureRedirect(String)
    /// A download's own: a local file the download would use is not a regular file inside the folder it must be in
    /// (a symbolic link, a folder, a device).
    case untrustedFile(String)
    /// A download's own: a file is at the destination that this download did not make (no checkpoint of this
    /// tool for the same URL beside it): it is left as it is, and nothing was fetched. `size` is
    /// nil for a symbolic link.
    case destinationExists(path: String, size: Int64?)
    /// A download's own: the destination is a file this run reads (`input` says which: "the resume blob"):
    /// never replaced, whatever the options.
    case destinationIsInput(path: String, input: String)
    /// A download's own: even a plain request got a 206 whose Content-Range did not fit.
    case invalidContentRange
    /// A download's own: the body was longer or shorter than the length announced.
    case lengthMismatch(expected: Int64, received: Int64)
    /// A download's own: the server sent ranges without ever stating the file's length, so completion cannot be proven.
    case lengthUnproven(received: Int64)
    /// The TLS handshake failed for a reason retrying cannot change (an untrusted or invalid
    /// certificate).
    case tls(String)
    /// The connection failed, or the server's answer could not be read: the same
    /// ``TransportFailure`` whichever transport carried the request.
    case connection(TransportFailure)
    /// The server's name does not resolve. Final, as in curl and wget: a retry a few seconds
    /// later asks the same resolver.
    case cannotResolve(host: String, reason: String)
    /// The response head did not arrive in time.
    case timedOut
    /// No byte arrived for the configured stall time.
    case stalled
    /// A download's own: it ran longer than ``DownloadConfiguration/maximumDuration`` allows (seconds).
    case tooLong(seconds: Double)
    /// Retries ran out; `last` is the final cause.
    case retriesExhausted(last: TransferError, attempts: Int)
    /// A download's own: the finished file's SHA-256 differs from the expected one (lowercase hex).
    case checksumMismatch(expected: String, actual: String)
    /// The expected SHA-256 given is not 64 hexadecimal digits (`SHA256Hex`).
    case invalidChecksum(String)
    /// Reading or writing local files failed (disk full, permissions).
    case disk(String)
    /// A download's own: another download (in this or another process) is writing this partial file.
    case inUse(String)
    /// The resume blob cannot be used.
    case invalidResumeData(String)
    /// The transfer was cancelled.
    case cancelled
    /// A proxy setting cannot be used (the message never shows a password).
    case invalidProxy(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidURL(let url): return "not an absolute http or https URL: \(url)"
        case .unexpectedStatus(let status): return "the server answered HTTP \(status)"
        case .tooManyRedirects(let limit): return "more than \(limit) redirects"
        case .invalidRedirect(let location): return "the server redirected to an unusable location: \(location)"
        case .insecureRedirect(let target):
            return "refusing a redirect from https to \(target): a transfer begun over https never goes on over plain http"
        case .untrustedFile(let message): return "refusing \(message)"
        case .destinationExists(let path, let size):
            let what = size.map { "a file of \($0) byte\($0 == 1 ? "" : "s")" } ?? "a symbolic link"
            return "\(path) exists (\(what)) and this download did not make it: left as it is, nothing fetched"
        case .destinationIsInput(let path, let input):
            return "\(path) is \(input) this run reads: an input is never replaced; save elsewhere"
        case .invalidContentRange: return "the server sent a Content-Range that does not match the request"
        case .lengthMismatch(let expected, let received):
            return "received \(received) bytes where the server announced \(expected)"
        case .lengthUnproven(let received):
            return "the server never stated the file's length (\(received) bytes received)"
        case .tls(let message): return "TLS failed: \(message)"
        case .connection(let failure): return "connection failed: \(failure)"
        case .cannotResolve(let host, let reason): return "connection failed: cannot resolve \(host): \(reason)"
        case .timedOut: return "the server did not answer in time"
        case .stalled: return "no data arrived for too long"
        case .tooLong(let seconds):
            let shown = seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
            return "the download took longer than the \(shown) s allowed"
        case .retriesExhausted(let last, let attempts): return "gave up after \(attempts) retries: \(last)"
        case .checksumMismatch(let expected, let actual):
            return "SHA-256 mismatch: expected \(expected), got \(actual)"
        case .invalidChecksum(let text): return "not a SHA-256 digest (64 hex digits): \(text)"
        case .disk(let message): return "file error: \(message)"
        case .inUse(let path): return "\(path) is being downloaded by another process"
        case .invalidResumeData(let message): return "unusable resume data: \(message)"
        case .cancelled: return "cancelled"
        case .invalidProxy(let message): return "bad proxy: \(message)"
        }
    }

    /// A proxy's 407, for a download's tunnel and an upload's alike.
    static let proxyWantsCredentials = TransferError.invalidProxy(
        "the proxy asks for credentials (407): give them in its URL, http://USER:PASSWORD@HOST:PORT")
}

/// The name ``TransferError`` had before uploads shared it.
@available(*, deprecated, renamed: "TransferError")
public typealias DownloadError = TransferError
