import ResumeDataCodec

/// One HTTP request the state machine wants sent: every request of a download, the single
/// stream's and each segment's, is built here, so they all carry the same headers.
struct RequestPlan: Equatable, Sendable {
    var url: HTTPURL
    var headers: [HTTPHeaderField]
    /// The byte offset asked for with `Range`, 0 for a plain request.
    var offset: Int64

    init(url: HTTPURL, headers: [HTTPHeaderField], offset: Int64) {
        self.url = url
        self.headers = headers
        self.offset = offset
    }

    /// Headers the engine sets itself; the caller's own values for them are dropped.
    private static let engineHeaders: Set<String> = ["range", "if-range", "accept-encoding"]

    /// A GET of the checkpoint's current URL: the caller's headers as ``TrustPolicy`` allows them
    /// there, `Accept-Encoding: identity` (the bytes on disk are the file's, never a coding of
    /// them), and for a range the `Range` from `start` (to `end`, exclusive, when given) with
    /// `If-Range` when there is a validator to send.
    init(checkpoint: DownloadCheckpoint, range: (start: Int64, end: Int64?)?, ifRange: String?) {
        let caller = checkpoint.extraHeaders.filter { !Self.engineHeaders.contains($0.name.lowercased()) }
        var headers = TrustPolicy.headers(caller, to: checkpoint.currentURL, startedAt: checkpoint.originalURL)
        // Each engine field is a constant, digits, or a validator the checkpoint took only as a
        // header value (a blob's is checked when it is decoded, a server's when its head is).
        headers += [HTTPHeaderField.engine("Accept-Encoding", "identity")].compactMap { $0 }
        if let range {
            let last = range.end.map { String($0 - 1) } ?? ""
            headers += [HTTPHeaderField.engine("Range", "bytes=\(range.start)-\(last)")].compactMap { $0 }
            if let ifRange { headers += [HTTPHeaderField.engine("If-Range", ifRange)].compactMap { $0 } }
        }
        self.init(url: checkpoint.currentURL, headers: headers, offset: range?.start ?? 0)
    }
}
