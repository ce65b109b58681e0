/// One HTTP request the state machine wants sent: every request of a download, the single
/// stream's and each segment's, is built here, so they all carry the same headers.
struct RequestPlan: Equatable, Sendable {
    var url: String
    var headers: [HTTPField]
    /// The byte offset asked for with `Range`, 0 for a plain request.
    var offset: Int64

    init(url: String, headers: [HTTPField], offset: Int64) {
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
        headers.append(HTTPField(name: "Accept-Encoding", value: "identity"))
        if let range {
            let last = range.end.map { String($0 - 1) } ?? ""
            headers.append(HTTPField(name: "Range", value: "bytes=\(range.start)-\(last)"))
            if let ifRange { headers.append(HTTPField(name: "If-Range", value: ifRange)) }
        }
        self.init(url: checkpoint.currentURL, headers: headers, offset: range?.start ?? 0)
    }
}
