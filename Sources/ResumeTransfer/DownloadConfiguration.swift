/// How downloads behave; shared by every download of one ``Downloader``.
public struct DownloadConfiguration: Sendable {
    /// Downloads running at once; the rest wait in the queue.
    public var maximumConcurrentDownloads = 4
    /// Failed attempts in a row (no byte received in between) before a download fails.
    public var maximumRetries = 5
    /// Redirects followed in one chain of requests.
    public var maximumRedirects = 10
    /// Whether a redirect from https to http is followed (off: such a download fails).
    public var allowsInsecureRedirects = false
    /// First retry delay; doubles with each failed attempt, up to ``maximumBackoff``.
    public var initialBackoff: Duration = .milliseconds(500)
    /// Longest delay between retries (unless the server's `Retry-After` asks for more).
    public var maximumBackoff: Duration = .seconds(30)
    /// Longest `Retry-After` honoured.
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
    public init() {}

    // MARK: Data path (issue 13)

    /// Body bytes gathered before one write (a `pwrite` per batch on the I/O thread). Internal:
    /// the fault-injection tests make it small so that a fault can hit any of many writes.
    var writeBatchBytes = 1 << 20
    /// Whether a plain-http download with one connection and no proxy reads its responses from
    /// a socket of its own and splices the body into the file (``DirectReceiver``; Linux only).
    /// Internal: the tests run both paths.
    var usesDirectPath = true

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

    var machine: DownloadStateMachine.Configuration {
        var machine = DownloadStateMachine.Configuration()
        machine.maximumRetries = self.maximumRetries
        machine.maximumRedirects = self.maximumRedirects
        machine.initialBackoff = self.initialBackoff
        machine.maximumBackoff = self.maximumBackoff
        machine.maximumRetryAfter = self.maximumRetryAfter
        machine.checkpointBytes = self.checkpointBytes
        machine.checkpointInterval = self.checkpointInterval
        machine.policy = TrustPolicy(allowsInsecureRedirects: self.allowsInsecureRedirects)
        return machine
    }
}
