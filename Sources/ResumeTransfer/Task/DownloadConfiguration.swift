/// How downloads behave; shared by every download of one ``Downloader``.
public struct DownloadConfiguration: Sendable {
    /// Downloads running at once; the rest wait in the queue.
    public var maximumConcurrentDownloads = 4
    /// Retries allowed in a row: after this many, the next failed attempt ends the download
    /// (``TransferError/retriesExhausted(last:attempts:)``). An attempt is failed unless it wrote
    /// bytes past the furthest offset any attempt reached on this file (an attempt that started
    /// over from zero never counts as progress, even when it received bytes); with
    /// ``connections``, unless the segments together passed the most they ever held. Retried:
    /// connection failures, timeouts, stalls, bodies that end short or run past the range they
    /// announced, and the statuses 408, 429 and 5xx. Not retried: TLS and proxy errors, disk
    /// errors, a body longer than the file's stated length, other statuses.
    /// With several connections, the same number bounds the failed or refused connections in a
    /// row (no connection wrote a byte in between): past it, no new connection opens.
    public var maximumRetries = 5
    /// Redirects followed in one chain of requests.
    public var maximumRedirects = 10
    /// Whether a redirect from https to http is followed (off: such a download fails).
    public var allowsInsecureRedirects = false
    /// First retry delay; doubles with each failed attempt in a row, up to ``maximumBackoff``;
    /// each delay is then shortened by a random part of up to half, so that downloads that
    /// failed together do not retry together.
    public var initialBackoff: Duration = .milliseconds(500)
    /// Longest delay the doubling reaches (a server's `Retry-After` that asks for more is honoured,
    /// up to ``maximumRetryAfter``).
    public var maximumBackoff: Duration = .seconds(30)
    /// Longest `Retry-After` honoured: a longer one waits this long. A `Retry-After` shorter
    /// than the backoff delay does not shorten it.
    public var maximumRetryAfter: Duration = .seconds(300)
    /// The most bytes per second each download receives (nil: as fast as the server sends).
    public var maximumBytesPerSecond: Int64?
    /// A PEM file of the certificate authorities to trust for https, instead of the system's
    /// (curl's `--cacert`).
    public var certificateAuthorityFile: String?
    /// Accept any server certificate (curl's `--insecure`): still encrypted, but anyone on the
    /// path can read and change the download. Off by default, and meant for tests.
    public var acceptsAnyCertificate = false
    /// The proxies requests go through; none by default (the library reads no environment: the
    /// CLI passes ``ProxySettings/init(environment:)`` as curl would).
    public var proxy = ProxySettings()
    /// How long connecting (TCP and TLS) may take before the attempt fails.
    public var connectTimeout: Duration = .seconds(10)
    /// No byte for this long counts as a failed attempt.
    public var stallTimeout: Duration = .seconds(30)
    /// How long the response head may take.
    public var responseTimeout: Duration = .seconds(60)
    /// A checkpoint is written after this many new bytes...
    public var checkpointBytes: Int64 = 8 << 20
    /// ...or after this much time with new bytes, whichever comes first.
    public var checkpointInterval: Duration = .seconds(2)

    /// The defaults above.
    /// Whether each request and response head is a ``DownloadEvent`` (`-v`). Not for the extra
    /// connections of a segmented download.
    public var reportsHeads = false

    /// How long one download may run in all, from its start (curl's `--max-time`); nil: no bound.
    /// Past it the download stops as a stall does, its partial file and blob kept, and fails with
    /// ``TransferError/tooLong(seconds:)``.
    public var maximumDuration: Duration?

    /// Whether a file at a destination that the download did not make is replaced once the
    /// download is complete (`--force`). Off: such a file is left as it is and nothing is fetched
    /// (a `download` of a URL ends successfully, a resume fails). A file the run reads (the
    /// resume blob, the partial file) is never replaced either way.
    public var replacesExistingFiles = false

    public init() {}

    // MARK: Data path (issue 13)

    /// Body bytes gathered before one write (a `pwrite` per batch on the I/O thread). Internal:
    /// the fault-injection tests make it small so that a fault can hit any of many writes.
    var writeBatchBytes = 1 << 20
    /// Whether an http or https download with no proxy reads its responses from sockets of its
    /// own, one per connection (``DirectReceiver``, with ``DirectTLS`` for https; Linux only).
    /// Internal: the tests run both paths.
    var usesDirectPath = true
    /// The bounds of an answer's head on both paths (issue 23). Internal: the tests lower them.
    var responseHeadLimits = ResponseHeadLimits()

    // MARK: Several connections (issue 13)

    /// Connections one download may use at once (aria2c's `-x`), 1 to 16. With more than one,
    /// a server that serves ranges of a file with a strong ETag is fetched in that many segments
    /// at once (each request with `If-Range`), which helps when the server or a CDN caps each
    /// connection's speed; any other server gets one stream. Checkpoints stay Apple resume data:
    /// the byte count is the contiguous prefix, the other finished ranges are in an extra key.
    public var connections = 1

    /// ``connections`` within 1...16.
    var segmentConnections: Int { min(max(self.connections, 1), 16) }
    /// A segment is split for an idle connection only when both halves keep at least this many
    /// bytes. Internal: the tests use small files.
    var minimumSegmentBytes: Int64 = 1 << 20

    /// The state machine's configuration: these values, the only defaults the engine has.
    var machine: DownloadStateMachine.Configuration {
        DownloadStateMachine.Configuration(
            maximumRedirects: self.maximumRedirects,
            retry: RetryPolicy(
                maximumRetries: self.maximumRetries, initialBackoff: self.initialBackoff,
                maximumBackoff: self.maximumBackoff, maximumRetryAfter: self.maximumRetryAfter,
                jitter: { Double.random(in: 0..<1) }),
            policy: TrustPolicy(allowsInsecureRedirects: self.allowsInsecureRedirects),
            checkpointBytes: self.checkpointBytes,
            checkpointInterval: self.checkpointInterval)
    }
}
