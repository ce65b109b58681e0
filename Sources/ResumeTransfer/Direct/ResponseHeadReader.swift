import NIOCore
import NIOHTTP1

/// The response head of the direct path (``DirectReceiver``), from bytes as they arrive: no I/O,
/// so the fuzzer (``DirectHeadCheck``) and the tests reach every verdict.
///
/// Each head ends at the first empty line, and only the head goes to the decoder, so the body's
/// bytes stay the receiver's (they are written, or spliced, without NIO). Every head, 1xx ones and
/// blank lines before a head too, counts against ``ResponseHeadLimits`` (``ResponseHeadMeter``),
/// and so do the bytes of a head not yet ended: a server that never ends its head is stopped at the
/// bound, not read for ever.
///
/// Not `Sendable`: it lives and dies on the receiver's thread, as its ``HTTP1Framing`` does.
struct ResponseHeadReader {
    /// How the body after the head is delimited.
    enum BodyFraming: Equatable {
        /// `Content-Length` bytes.
        case length(Int64)
        /// Until the server closes the connection.
        case close
        /// A `Transfer-Encoding` NIO's decoder takes apart (chunked).
        case decoded
    }

    /// The final head and the bytes that came after it (the body's first bytes).
    struct Head {
        var head: HTTPResponseHead
        var leftover: [UInt8]
    }

    private let framing: HTTP1Framing
    private var meter: ResponseHeadMeter
    private var pending: [UInt8] = []
    /// Where the search for the empty line goes on: the bytes before it were searched.
    private var scanned = 0

    init(framing: HTTP1Framing, limits: ResponseHeadLimits) {
        self.framing = framing
        self.meter = ResponseHeadMeter(limits: limits)
    }

    /// The most bytes worth reading at once: a head is never longer than the bound.
    var readSize: Int { self.meter.limits.maximumHeadBytes }

    /// Takes more bytes of the answer.
    /// - Returns: the final head, or nil while it has not ended.
    /// - Throws: ``TransferError/connection(_:)`` when a bound is passed or the decoder refuses
    ///   the head; nothing more is to be fed then.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Head? {
        self.pending += bytes
        while let end = Self.headEnd(in: self.pending, from: self.scanned) {
            let parts: [HTTP1Framing.Part]
            do {
                try self.meter.checkPending(end)
                parts = try self.pending[0..<end].withUnsafeBytes { try self.framing.feed($0) }
                self.pending.removeFirst(end)
                self.scanned = 0
                // Blank lines before a head give none, and count all the same.
                guard case .head(let head)? = parts.first else {
                    try self.meter.countWithoutHead(bytes: end)
                    continue
                }
                if try self.meter.count(head, bytes: end) { return Head(head: head, leftover: self.pending) }
            } catch let exceeded as ResponseHeadLimits.Exceeded {
                throw .connection(.invalidResponse(exceeded.description))
            } catch {
                throw .connection(.invalidResponse("invalid response from the server: \(error)"))
            }
        }
        self.scanned = max(self.pending.count - 3, 0)
        do {
            try self.meter.checkPending(self.pending.count)
        } catch {
            throw .connection(.invalidResponse(error.description))
        }
        return nil
    }

    /// The index just past the first `\r\n\r\n` at or after `from`.
    static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = max(start, 0)
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    /// How the body of `head` is delimited.
    /// - Throws: ``TransferError/connection(_:)`` for a `Content-Length` that is not one number.
    static func bodyFraming(of head: HTTPResponseHead) throws(TransferError) -> BodyFraming {
        if head.headers.contains(name: "transfer-encoding") { return .decoded }
        let lengths = head.headers[canonicalForm: "content-length"]
        guard let first = lengths.first else { return .close }
        // llhttp has checked the value already; a second, different one is still refused here.
        guard lengths.allSatisfy({ $0 == first }), first.utf8.allSatisfy({ (48...57).contains($0) }),
              let length = Int64(first)
        else { throw .connection(.invalidResponse("invalid Content-Length: \(lengths.joined(separator: ", "))")) }
        return .length(length)
    }
}
