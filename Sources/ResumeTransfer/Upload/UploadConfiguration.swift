import ResumeDataCodec

/// How a resumable upload runs: the draft version spoken, the caller's headers, and the engine's
/// shared rules (``RetryPolicy``, ``ResponseHeadLimits``, ``TrustPolicy``) as downloads use them.
package struct UploadConfiguration: Sendable {
    /// The interop version of the draft spoken (6 by default: what iOS 18.1+ and macOS 15.1+
    /// send, and the newest Apple's own server speaks).
    var draft: ResumableUploadDraft
    /// The method of the request that creates the upload (`POST`, or `PUT`).
    var creationMethod: String
    /// The caller's headers (`-H`), sent with every request; credentials only to the origin of
    /// the creation URL (``TrustPolicy``).
    var headers: [HTTPHeaderField]
    var retry: RetryPolicy
    var limits: ResponseHeadLimits
    var trust: TrustPolicy
    /// Times a fresh creation request is tried after the server forgot the upload (404/410).
    var maximumRestarts: Int
    /// The bytes read from the file and written at once: the memory an upload holds.
    var chunkSize: Int
    /// The body's rate, bytes per second; nil: as fast as the server takes it.
    var bytesPerSecond: Int64?
    var connectTimeout: Duration
    /// No byte sent or received for this long ends the attempt (`stalled`), retried as any other.
    var stallTimeout: Duration
    /// A file of extra trusted certificate authorities (PEM), as `--cacert`.
    var certificateAuthorityFile: String?
    /// Accept any certificate (`--insecure`).
    var acceptsAnyCertificate: Bool
    /// The proxies requests go through (a tunnel to the server: ``ProxyTunnel``).
    var proxy: ProxySettings

    package init(
        draft: ResumableUploadDraft? = nil,
        creationMethod: String = "POST", headers: [HTTPHeaderField] = [], maximumRetries: Int = 5,
        initialBackoff: Duration = .seconds(1), maximumRestarts: Int = 2, chunkSize: Int = 1 << 20,
        bytesPerSecond: Int64? = nil, connectTimeout: Duration = .seconds(30), stallTimeout: Duration = .seconds(60),
        certificateAuthorityFile: String? = nil, acceptsAnyCertificate: Bool = false, proxy: ProxySettings = ProxySettings()
    ) {
        self.draft = draft ?? ResumableUploadDraft(UploadDraftVersion("6") ?? Self.fallbackVersion)
        self.creationMethod = creationMethod
        self.headers = headers
        self.retry = RetryPolicy(
            maximumRetries: max(maximumRetries, 0), initialBackoff: initialBackoff, maximumBackoff: .seconds(30),
            maximumRetryAfter: .seconds(300), jitter: { Double.random(in: 0..<1) })
        self.limits = ResponseHeadLimits()
        self.trust = TrustPolicy()
        self.maximumRestarts = max(maximumRestarts, 0)
        self.chunkSize = min(max(chunkSize, 4096), 8 << 20)
        self.bytesPerSecond = bytesPerSecond
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.certificateAuthorityFile = certificateAuthorityFile
        self.acceptsAnyCertificate = acceptsAnyCertificate
        self.proxy = proxy
    }

    /// Stands in where the literal "6" failed its check, which it cannot.
    private static var fallbackVersion: UploadDraftVersion {
        guard let version = UploadDraftVersion("3") else { preconditionFailure("interop version 3 is known") }
        return version
    }
}
