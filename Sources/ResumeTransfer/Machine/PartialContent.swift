import ResumeDataCodec

/// What a 206 answer says it carries, read from its `Content-Range` and `Content-Length`. Both
/// the single stream's answers and the segments' are read here; each caller then compares it
/// with what it asked for. Every number is the server's, checked before any arithmetic.
struct PartialContent: Equatable, Sendable {
    /// The first byte of the body.
    var start: Int64
    /// One past the last byte of the body.
    var end: Int64
    /// The file's length, nil for `*`.
    var total: Int64?
    /// False when a `Content-Length` states another body length than the range's.
    var lengthAgrees: Bool
}

extension PartialContent {
    /// nil when `Content-Range` is missing, not a byte range, or beyond 64 bits.
    init?(headers: [HTTPHeaderField]) {
        guard let range = ContentRange(headers.value(of: "content-range") ?? ""), let start = range.start,
              let end = range.exclusiveEnd, let length = range.length
        else { return nil }
        self.start = start
        self.end = end
        self.total = range.total
        self.lengthAgrees = headers.value(of: "content-length").map { Int64($0) == length } ?? true
    }
}
