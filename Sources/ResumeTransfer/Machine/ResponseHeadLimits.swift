import NIOHTTP1

/// The bounds every answer's head keeps, on every path (``DirectReceiver`` and AsyncHTTPClient's,
/// through ``ResponseHeadGuard``): what a hostile server can make the engine read before the
/// answer's status is known. The 1xx heads that come first count with the final one, so a server
/// that sends `100 Continue` for ever is stopped as soon as one of these is reached, not by a
/// timeout a minute later. No I/O; ``ResponseHeadMeter`` applies them.
///
/// curl stops at 300 KB of headers in all and 100 KB per line; nginx refuses request heads
/// past 8 KB per line. These are tighter where a download server has no use for more.
struct ResponseHeadLimits: Equatable, Sendable {
    /// Every head of one answer together, 1xx heads included, in bytes as sent.
    var maximumHeadBytes = 80 * 1024
    /// Header fields in one head.
    var maximumFields = 512
    /// One header line (name, colon, value), in bytes.
    var maximumLineBytes = 16 * 1024
    /// Informational (1xx) heads before the final one.
    var maximumInformational = 16

    /// Which bound an answer broke; its message is the download's connection error.
    enum Exceeded: Error, Equatable, Sendable, CustomStringConvertible {
        case headBytes(Int)
        case fields(Int)
        case lineBytes(Int)
        case informational(Int)

        var description: String {
            switch self {
            case .headBytes(let limit): "the response head is longer than \(limit) bytes"
            case .fields(let limit): "the response head has more than \(limit) header fields"
            case .lineBytes(let limit): "a response header line is longer than \(limit) bytes"
            case .informational(let limit): "the server sent more than \(limit) informational (1xx) responses before its answer"
            }
        }
    }
}

/// Counts the heads of one answer against ``ResponseHeadLimits``: each 1xx head, then the final
/// one. One meter per connection, used on its thread or event loop.
struct ResponseHeadMeter: Sendable {
    let limits: ResponseHeadLimits
    private(set) var bytes = 0
    private(set) var informational = 0

    init(limits: ResponseHeadLimits) {
        self.limits = limits
    }

    /// Bytes seen of a head that has not ended yet (the direct path reads them before the
    /// decoder has a head to give); throws once the heads so far and these pass the bound.
    func checkPending(_ pending: Int) throws(ResponseHeadLimits.Exceeded) {
        if pending > self.limits.maximumHeadBytes - self.bytes { throw .headBytes(self.limits.maximumHeadBytes) }
    }

    /// Counts bytes that ended like a head but held none (blank lines the decoder skips).
    mutating func countWithoutHead(bytes: Int) throws(ResponseHeadLimits.Exceeded) {
        try self.checkPending(bytes)
        self.bytes += bytes
    }

    /// Counts a decoded head; `bytes` is its size as sent when the caller read it (the direct
    /// path), else the size of its fields as HTTP/1.1 spells them. After a final head (not 1xx)
    /// the meter starts over, for the next answer on a kept connection.
    /// - Returns: whether the head is the final one.
    mutating func count(_ head: HTTPResponseHead, bytes: Int? = nil) throws(ResponseHeadLimits.Exceeded) -> Bool {
        var fields = 0
        var spelled = 17 + head.status.reasonPhrase.utf8.count  // "HTTP/1.1 200 OK\r\n" and the closing "\r\n"
        for (name, value) in head.headers {
            fields += 1
            let line = name.utf8.count + 2 + value.utf8.count
            if line > self.limits.maximumLineBytes { throw .lineBytes(self.limits.maximumLineBytes) }
            spelled += line + 2
        }
        if fields > self.limits.maximumFields { throw .fields(self.limits.maximumFields) }
        let size = bytes ?? spelled
        if size > self.limits.maximumHeadBytes - self.bytes { throw .headBytes(self.limits.maximumHeadBytes) }
        let isFinal = head.status.code >= 200 || head.status == .switchingProtocols
        if isFinal {
            self = ResponseHeadMeter(limits: self.limits)
            return true
        }
        self.informational += 1
        if self.informational > self.limits.maximumInformational { throw .informational(self.limits.maximumInformational) }
        self.bytes += size
        return false
    }
}
