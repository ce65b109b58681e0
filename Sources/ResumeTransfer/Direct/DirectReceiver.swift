#if os(Linux)
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import ResumeDataCodec
import ResumeSystemCalls
import Synchronization

import Glibc

/// Receives one plain-http response on a socket and a thread of its own, and moves the body into
/// the partial file with splice(2): socket to pipe (the kernel hands over the pages), pipe to file
/// (one copy). Through AsyncHTTPClient every byte is copied twice, socket to a NIO buffer and
/// buffer to the page cache, on a 2-core machine that the server shares; that second copy kept
/// the engine at 0.84–1.04× curl's time with the disk out of the way (issue 13). The HTTP framing
/// stays SwiftNIO's (``HTTP1Framing``); only the body bytes bypass it, and only when the body is
/// delimited by `Content-Length` or by the close. A chunked body goes through NIO's decoder and
/// `pwrite`, and so does every write when the file-system calls have no splice (the tests' fakes).
/// Every socket and pipe call goes through the partial file's ``FileSystemCalls/sockets``.
///
/// An https response (issue 24) takes the same steps with TLS in between (``DirectTLS``): the head
/// is read from the plaintext with the same bounds, and the body's plaintext is written with
/// `pwrite` from the buffer it was decrypted into (no splice: the kernel has no kTLS).
///
/// It keeps ``ResponseReceiver``'s promises (``BodyReceiver``): events on the queue in order, no
/// body byte before the loop's answer, each ``ResponseEvent/written(_:)`` only once its bytes are
/// in the file, and the last event after the last write. Timeouts are the engine's: connecting,
/// the response head, and no byte for the stall time.
///
/// With `--connections`, each segment has a receiver of its own (``ConnectionOpener``): its own
/// thread, socket and buffers, writing with `pwrite`/splice at its own offsets of the one file.
/// The end of its segment can be moved down while it writes (``shrink(to:)``); the thread claims
/// each range before it writes it (``claim(from:count:)``) and lets the rest go before it waits
/// (``settle(at:)``), so the end never moves below a byte it may be writing.
final class DirectReceiver: SegmentReceiver {
    /// What the receiver needs of the download's settings.
    struct Settings: Sendable {
        var connectTimeout: Duration
        var responseTimeout: Duration
        var stallTimeout: Duration
        /// Bytes between two `written` events (and the largest `pwrite` when not splicing).
        var batchBytes: Int
        /// A smaller batch is reported anyway after this long.
        var flushInterval: Duration = .milliseconds(100)
        var rateLimit: SharedRatePacer?
        /// The bounds of the response head, 1xx heads included.
        var headLimits = ResponseHeadLimits()
        /// The TLS settings of an `https` route (the HTTP clients' own); without them such a
        /// route fails.
        var tls: NIOSSLContext?
    }

    enum Decision: Sendable {
        case accept(position: Int64, overlap: Int64, limit: Int64?)
        case discard
    }

    private struct Shared {
        var decision: Decision?
        var stopReason: TransferError?
        /// The write end of the wake pipe while the thread runs; -1 after it closed it.
        var wakeWrite: Int32 = -1
        /// The file position the body stops at (the accepted limit, moved down by a shrink).
        var limit: Int64?
        /// One past the last byte the thread may be writing: no shrink goes below it.
        var claimed: Int64 = 0
    }

    let tag: Int
    /// Read by the connection on the receiver's thread, as are `settings` and `wakeRead`.
    let part: PartialFile
    let settings: Settings
    private let events: ResponseEvent.Queue
    private let shared = Mutex(Shared())
    /// The read end of the wake pipe; the thread owns and closes it.
    let wakeRead: Int32
    let sockets: SocketCalls

    /// Fails when no pipe can be made (out of descriptors); the caller then uses AsyncHTTPClient.
    init?(tag: Int = 0, part: PartialFile, settings: Settings, events: ResponseEvent.Queue) {
        guard case .success(let fds) = part.calls.sockets.pipe() else { return nil }
        self.tag = tag
        self.part = part
        self.settings = settings
        self.events = events
        self.sockets = part.calls.sockets
        self.wakeRead = fds.read
        self.shared.withLock { $0.wakeWrite = fds.write }
    }

    /// Sends a `GET` of `route` with `headers` and follows the response on a new thread. The
    /// caller has checked with ``HTTP1Framing/request(_:headers:)`` that NIO takes the headers.
    func start(route: DirectRoute, headers: [HTTPHeaderField]) {
        let thread = Thread { [self] in
            // NIO's EmbeddedChannel must stay on the thread that made it: this one.
            guard let connection = try? DirectConnection(receiver: self) else {
                return self.finish(.failed(.connection(.other("internal: no HTTP framing"))), unreported: 0)
            }
            let outcome = connection.run(route: route, headers: headers)
            connection.close()
            self.finish(outcome, unreported: connection.unreported)
        }
        thread.name = "resumetool direct receive"
        thread.start()
    }

    // MARK: BodyReceiver (any thread)

    func accept(at position: Int64, verifying overlap: Int64, upTo limit: Int64?) {
        self.decide(.accept(position: position, overlap: overlap, limit: limit))
    }

    func discard() {
        self.decide(.discard)
    }

    func stop(reason: TransferError) {
        self.shared.withLock { shared in
            if shared.stopReason == nil { shared.stopReason = reason }
            self.poke(shared.wakeWrite)
        }
    }

    func shrink(to proposed: Int64) async -> Int64? {
        self.shared.withLock { shared -> Int64? in
            guard case .accept? = shared.decision, shared.stopReason == nil, let limit = shared.limit else { return nil }
            let end = max(proposed, shared.claimed)
            guard end < limit else { return nil }
            shared.limit = end
            // A thread waiting for bytes it no longer needs ends at once.
            self.poke(shared.wakeWrite)
            return end
        }
    }

    private func decide(_ decision: Decision) {
        self.shared.withLock { shared in
            if shared.decision == nil {
                shared.decision = decision
                if case .accept(let position, _, let limit) = decision {
                    shared.limit = limit
                    shared.claimed = position
                }
            }
            self.poke(shared.wakeWrite)
        }
    }

    /// One byte into the wake pipe (a full pipe already wakes the thread). Called under the
    /// lock, so the descriptor cannot be closed, and its number reused, in between.
    private func poke(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { self.sockets.write(descriptor, $0) }
    }

    // MARK: the thread's side

    var stopReason: TransferError? { self.shared.withLock { $0.stopReason } }
    var decision: Decision? { self.shared.withLock { $0.decision } }
    /// Where the body stops now (nil: at its end).
    var limit: Int64? { self.shared.withLock { $0.limit } }

    /// The thread may write `count` bytes from `position` (the next byte it writes) on: returns
    /// how many of them lie before the limit (0 once it is reached), and until the next claim or
    /// ``settle(at:)`` no shrink goes below their end.
    func claim(from position: Int64, count: Int64) -> Int64 {
        self.shared.withLock { shared in
            let allowed = shared.limit.map { min(count, max($0 - position, 0)) } ?? count
            shared.claimed = position + allowed
            return allowed
        }
    }

    /// The thread wrote everything before `position` and is about to wait (for bytes, or for
    /// the rate limit): what it claimed beyond may go to another connection meanwhile. A claim
    /// asks for a whole batch while the socket mostly holds less, so without this a slow
    /// connection, which waits most of the time, could never be split.
    func settle(at position: Int64) {
        self.shared.withLock { $0.claimed = position }
    }

    func emit(_ event: ResponseEvent) {
        self.events.yield(event, from: self.tag)
    }

    private func finish(_ outcome: Outcome, unreported: Int64) {
        if unreported > 0 { self.emit(.written(unreported)) }
        // Closed under the lock, so a late stop() never writes into a descriptor number that
        // has been reused.
        self.shared.withLock { shared in
            if shared.wakeWrite >= 0 { _ = self.sockets.close(shared.wakeWrite) }
            shared.wakeWrite = -1
        }
        _ = self.sockets.close(self.wakeRead)
        switch outcome {
        case .ended: self.emit(.ended)
        case .failed(let error): self.emit(.failed(error))
        case .mismatch: self.emit(.overlapMismatched)
        }
    }

    enum Outcome: Sendable {
        case ended
        case failed(TransferError)
        case mismatch
    }
}
#endif
