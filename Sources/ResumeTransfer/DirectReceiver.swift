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
final class DirectReceiver: BodyReceiver {
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

    fileprivate enum Decision: Sendable {
        case accept(position: Int64, overlap: Int64, limit: Int64?)
        case discard
    }

    private struct Shared {
        var decision: Decision?
        var stopReason: DownloadError?
        /// The write end of the wake pipe while the thread runs; -1 after it closed it.
        var wakeWrite: Int32 = -1
    }

    let tag: Int
    /// Read by the connection on the receiver's thread, as are `settings` and `wakeRead`.
    fileprivate let part: PartialFile
    fileprivate let settings: Settings
    private let events: ResponseEvent.Queue
    private let shared = Mutex(Shared())
    /// The read end of the wake pipe; the thread owns and closes it.
    fileprivate let wakeRead: Int32
    fileprivate let sockets: SocketCalls

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
            guard let connection = try? Connection(receiver: self) else {
                return self.finish(.failed(.connection("internal: no HTTP framing")), unreported: 0)
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

    func stop(reason: DownloadError) {
        self.shared.withLock { shared in
            if shared.stopReason == nil { shared.stopReason = reason }
            self.poke(shared.wakeWrite)
        }
    }

    private func decide(_ decision: Decision) {
        self.shared.withLock { shared in
            if shared.decision == nil { shared.decision = decision }
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

    fileprivate var stopReason: DownloadError? { self.shared.withLock { $0.stopReason } }
    fileprivate var decision: Decision? { self.shared.withLock { $0.decision } }

    fileprivate func emit(_ event: ResponseEvent) {
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

    fileprivate enum Outcome: Sendable {
        case ended
        case failed(DownloadError)
        case mismatch
    }
}

/// The socket side of one response; lives on the receiver's thread.
private final class Connection {
    /// Why the body loop stopped early.
    private enum Stop: Error {
        case outcome(DirectReceiver.Outcome)
    }

    private enum Wait {
        case ready
        case woken
        case timedOut
    }

    let receiver: DirectReceiver
    private let calls: SocketCalls
    private let framing: HTTP1Framing
    private var socket: Int32 = -1
    private var pipe: (read: Int32, write: Int32) = (-1, -1)
    private var pipeCapacity = 64 * 1024
    private var buffer: UnsafeMutableRawBufferPointer?
    /// The address connected to (hostname verification compares an IP address with it).
    private var peer: SocketAddress?
    /// TLS on the socket, for an `https` route.
    private var tls: DirectTLS?
    /// Decrypted bytes not yet taken.
    private var plaintext: ByteBuffer?
    /// Encrypted bytes as received; one buffer, reused.
    private var cipher = ByteBuffer()
    /// Body bytes written and not yet reported.
    private(set) var unreported: Int64 = 0
    private var lastReport = ContinuousClock.now
    /// The file position of the next body byte.
    private var position: Int64 = 0
    /// Body bytes still to compare with the file rather than write.
    private var unverified: Int64 = 0
    private var limit: Int64?

    init(receiver: DirectReceiver) throws {
        self.receiver = receiver
        self.calls = receiver.sockets
        self.framing = try HTTP1Framing()
    }

    func close() {
        self.tls?.close()
        self.tls = nil
        self.plaintext = nil
        if self.socket >= 0 { _ = self.calls.close(self.socket) }
        if self.pipe.read >= 0 { _ = self.calls.close(self.pipe.read) }
        if self.pipe.write >= 0 { _ = self.calls.close(self.pipe.write) }
        self.socket = -1
        self.pipe = (-1, -1)
        self.buffer?.deallocate()
        self.buffer = nil
    }

    func run(route: DirectRoute, headers: [HTTPHeaderField]) -> DirectReceiver.Outcome {
        let settings = self.receiver.settings
        let start = ContinuousClock.now
        let headDeadline = start + settings.responseTimeout
        do throws(Stop) {
            guard let request = self.framing.request(route, headers: headers) else {
                return .failed(.connection("internal: the request could not be framed"))
            }
            let connectDeadline = min(start + settings.connectTimeout, headDeadline)
            try self.connect(route, deadline: connectDeadline)
            if route.usesTLS {
                try self.startTLS(route)
                do {
                    try self.tls?.write(request)
                } catch {
                    return .failed(DownloadError(transport: error))
                }
                // The request goes out once the handshake is done (flushTLS, after each receive).
                try self.flushTLS()
                try self.awaitHandshake(until: connectDeadline)
            } else {
                try self.send(request)
            }
            let read = try self.readHead(deadline: headDeadline)
            let head = read.head
            self.receiver.emit(.head(status: Int(head.status.code), headers: HTTPHeaderField.fields(of: head.headers)))
            switch try self.awaitDecision() {
            case .discard:
                return .ended
            case .accept(let position, let overlap, let limit):
                self.position = position
                self.unverified = overlap
                self.limit = limit
                let framing: ResponseHeadReader.BodyFraming
                do {
                    framing = try ResponseHeadReader.bodyFraming(of: head)
                } catch {
                    return .failed(error)
                }
                return try self.receiveBody(framing: framing, leftover: read.leftover)
            }
        } catch {
            switch error {
            case .outcome(let outcome): return outcome
            }
        }
    }

    // MARK: connecting and the head

    private func connect(_ route: DirectRoute, deadline: ContinuousClock.Instant) throws(Stop) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(route.host, String(route.port), &hints, &list)
        guard status == 0, let first = list else {
            throw .outcome(.failed(.connection(DownloadError.cannotResolve(route.host, String(cString: gai_strerror(status))))))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            try self.checkStop()
            let fd: Int32
            switch self.calls.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)) {
            case .success(let opened): fd = opened
            case .failure(let failure):
                lastError = failure.description
                continue
            }
            let connected = self.calls.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
            // EALREADY: a connect interrupted by a signal and retried goes on in the background.
            if case .failure(let failure) = connected, failure.code != EINPROGRESS, failure.code != EALREADY {
                lastError = failure.description
            } else {
                self.socket = fd
                switch try self.wait(for: Int16(POLLOUT), until: deadline) {
                case .ready:
                    let pending = self.calls.pendingError(fd)
                    if case .success(0) = pending {
                        self.peer = Self.socketAddress(address.pointee, host: route.host)
                        return
                    }
                    switch pending {
                    case .success(let error): lastError = String(cString: strerror(error))
                    case .failure(let failure): lastError = failure.description
                    }
                case .timedOut:
                    throw .outcome(.failed(.timedOut))
                case .woken:
                    try self.checkStop()
                    lastError = "interrupted"
                }
                self.socket = -1
            }
            _ = self.calls.close(fd)
        }
        throw .outcome(.failed(.connection(DownloadError.cannotConnect(route.host, port: route.port, lastError))))
    }

    private static func socketAddress(_ info: addrinfo, host: String) -> SocketAddress? {
        guard let raw = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET: return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
        case AF_INET6: return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
        default: return nil
        }
    }

    private func send(_ request: [UInt8]) throws(Stop) {
        let result = request.withUnsafeBytes { bytes in Result { () throws(Stop) in try self.send(bytes) } }
        try result.get()
    }

    private func send(_ bytes: UnsafeRawBufferPointer) throws(Stop) {
        var sent = 0
        let stall = self.receiver.settings.stallTimeout
        while sent < bytes.count {
            let result = self.calls.send(self.socket, UnsafeRawBufferPointer(rebasing: bytes[sent...]))
            switch result {
            case .success(let count) where count > 0:
                sent += count
            case .failure(let failure) where failure.code == EAGAIN:
                if case .timedOut = try self.wait(for: Int16(POLLOUT), until: .now + stall) { throw .outcome(.failed(.stalled)) }
            case .success:
                // Only an empty buffer sends nothing, and the loop never passes one.
                throw .outcome(.failed(.connection("send: no byte sent")))
            case .failure(let failure):
                throw .outcome(.failed(.connection("send: \(failure)")))
            }
        }
    }

    /// Reads until ``ResponseHeadReader`` has the final head (every head, 1xx ones too, counted
    /// against the bounds); what came after it is the body's first bytes.
    private func readHead(deadline: ContinuousClock.Instant) throws(Stop) -> ResponseHeadReader.Head {
        let settings = self.receiver.settings
        var reader = ResponseHeadReader(framing: self.framing, limits: settings.headLimits)
        let chunk = self.scratch()
        while true {
            let stallDeadline = ContinuousClock.now + settings.stallTimeout
            switch try self.receive(UnsafeMutableRawBufferPointer(rebasing: chunk[0..<min(chunk.count, reader.readSize)])) {
            case .success(let count) where count > 0:
                let result = Result { () throws(DownloadError) in try reader.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
                switch result {
                case .success(let head?): return head
                case .success(nil): continue
                case .failure(let error): throw .outcome(.failed(error))
                }
            case .success:
                throw .outcome(.failed(.connection(DownloadError.closedBeforeHead)))
            case .failure(let failure) where failure.code == EAGAIN:
                switch try self.wait(for: Int16(POLLIN), until: min(deadline, stallDeadline)) {
                case .ready, .woken: break
                case .timedOut:
                    throw .outcome(.failed(ContinuousClock.now >= deadline ? .timedOut : .stalled))
                }
            case .failure(let failure):
                throw .outcome(.failed(.connection("receive: \(failure)")))
            }
        }
    }

    private func awaitDecision() throws(Stop) -> DirectReceiver.Decision {
        while true {
            try self.checkStop()
            if let decision = self.receiver.decision { return decision }
            var wake = pollfd(fd: self.receiver.wakeRead, events: Int16(POLLIN), revents: 0)
            _ = withUnsafeMutablePointer(to: &wake) { self.calls.poll(UnsafeMutableBufferPointer(start: $0, count: 1), -1) }
            self.drain(self.receiver.wakeRead)
        }
    }

    // MARK: the body

    private func receiveBody(framing: ResponseHeadReader.BodyFraming, leftover: [UInt8]) throws(Stop) -> DirectReceiver.Outcome {
        var remaining: Int64?
        switch framing {
        case .length(let length): remaining = length
        case .close: remaining = nil
        case .decoded:
            return try self.receiveDecoded(leftover: leftover)
        }
        // The bytes read with the head come first.
        let first = remaining.map { Int(min(Int64(leftover.count), $0)) } ?? leftover.count
        if first > 0 {
            try self.deliver(leftover[0..<first])
            remaining = remaining.map { $0 - Int64(first) }
        }
        if self.tls != nil { return try self.receiveDecrypted(remaining: remaining) }
        if self.receiver.part.canSplice, case .success(let fds) = self.calls.pipe() {
            self.pipe = fds
            // 1 MiB pipes move a batch per call; the system may allow less (pipe-max-size).
            if case .success(let capacity) = self.calls.setPipeSize(self.pipe.write, 1 << 20), capacity > 0 { self.pipeCapacity = Int(capacity) }
        }
        while remaining != 0 {
            try self.checkStop()
            if let limit = self.limit, self.position >= limit { return .ended }
            var want = Int64(self.pipe.write >= 0 && self.unverified == 0 ? self.pipeCapacity : self.receiver.settings.batchBytes)
            if let remaining { want = min(want, remaining) }
            if let limit = self.limit { want = min(want, limit - self.position) }
            if let rate = self.receiver.settings.rateLimit?.bytesPerSecond {
                // Small steps keep a limited rate smooth.
                want = min(want, max(rate / 10, 16 * 1024))
            }
            let count: Int
            if self.pipe.write >= 0, self.unverified == 0 {
                count = try self.spliceStep(Int(want))
            } else {
                count = try self.readStep(Int(want))
            }
            guard count > 0 else {
                if count == 0 {
                    // The server closed the connection.
                    if let remaining, remaining > 0 {
                        return .failed(.connection(DownloadError.closedBeforeEnd(remaining: remaining)))
                    }
                    break
                }
                try self.waitForData()
                continue
            }
            remaining = remaining.map { $0 - Int64(count) }
            try self.pace(count)
        }
        return self.unverified > 0 ? .mismatch : .ended
    }

    /// A chunked (or otherwise encoded) body, decoded by NIO and written with `pwrite`.
    private func receiveDecoded(leftover: [UInt8]) throws(Stop) -> DirectReceiver.Outcome {
        var parts: [HTTP1Framing.Part]
        do {
            parts = try leftover.withUnsafeBytes { try self.framing.feed($0) }
        } catch {
            return .failed(.connection("invalid body from the server: \(error)"))
        }
        let buffer = self.scratch()
        while true {
            for part in parts {
                switch part {
                case .body(let bytes):
                    try self.deliver(bytes.readableBytesView)
                    try self.pace(bytes.readableBytes)
                case .end:
                    return self.unverified > 0 ? .mismatch : .ended
                case .head:
                    return .failed(.connection("a second response head inside the body"))
                }
                if let limit = self.limit, self.position >= limit { return .ended }
            }
            try self.checkStop()
            let received = try self.receive(buffer)
            do {
                switch received {
                case .success(let count) where count > 0:
                    parts = try self.framing.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                case .success:
                    parts = (try? self.framing.feedEnd()) ?? []
                    if !parts.contains(where: { if case .end = $0 { true } else { false } }) {
                        return .failed(.connection(DownloadError.closedBeforeEnd(remaining: nil)))
                    }
                case .failure(let failure) where failure.code == EAGAIN:
                    parts = []
                    try self.waitForData()
                case .failure(let failure):
                    return .failed(.connection("receive: \(failure)"))
                }
            } catch let stop as Stop {
                throw stop
            } catch {
                return .failed(.connection("invalid body from the server: \(error)"))
            }
        }
    }

    /// Socket to pipe to file: the bytes moved, 0 at the end of the stream, -1 when nothing is
    /// waiting.
    private func spliceStep(_ want: Int) throws(Stop) -> Int {
        let count: Int
        switch self.calls.spliceFromSocket(self.socket, self.pipe.write, want) {
        case .success(let moved): count = moved
        case .failure(let failure) where failure.code == EAGAIN: return -1
        case .failure(let failure): throw .outcome(.failed(.connection("receive: \(failure)")))
        }
        guard count > 0 else { return 0 }
        var moved = 0
        do {
            try self.receiver.part.splice(from: self.pipe.read, count: count, at: self.position, progress: &moved)
        } catch {
            self.advance(by: moved)
            throw .outcome(.failed(error))
        }
        self.advance(by: moved)
        return count
    }

    /// Socket to buffer to file (`pwrite`, or the comparison of bytes the file must already hold).
    private func readStep(_ want: Int) throws(Stop) -> Int {
        let buffer = self.scratch()
        let count: Int
        switch self.calls.recv(self.socket, UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(want, buffer.count)])) {
        case .success(let received): count = received
        case .failure(let failure) where failure.code == EAGAIN: return -1
        case .failure(let failure): throw .outcome(.failed(.connection("receive: \(failure)")))
        }
        if count > 0 { try self.deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
        return count
    }

    private func deliver(_ bytes: some Collection<UInt8>) throws(Stop) {
        let result = Array(bytes).withUnsafeBytes { raw in Result { () throws(Stop) in try self.deliver(raw) } }
        try result.get()
    }

    /// Compares the bytes the file must already hold, writes the rest (up to the limit).
    private func deliver(_ bytes: UnsafeRawBufferPointer) throws(Stop) {
        var bytes = bytes
        if let limit = self.limit {
            bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(min(Int64(bytes.count), max(limit - self.position, 0)))])
        }
        if self.unverified > 0 {
            let verify = Int(min(self.unverified, Int64(bytes.count)))
            let same: Bool
            do {
                same = try self.receiver.part.holds(UnsafeRawBufferPointer(rebasing: bytes[0..<verify]), at: self.position)
            } catch {
                throw .outcome(.failed(error))
            }
            guard same else { throw .outcome(.mismatch) }
            self.unverified -= Int64(verify)
            self.position += Int64(verify)
            bytes = UnsafeRawBufferPointer(rebasing: bytes[verify...])
        }
        guard !bytes.isEmpty else { return }
        var done = 0
        do {
            try self.receiver.part.write(bytes, at: self.position, progress: &done)
        } catch {
            self.advance(by: done)
            throw .outcome(.failed(error))
        }
        self.advance(by: done)
    }

    /// Counts written bytes, reporting them once a batch is full or the flush interval passed.
    private func advance(by count: Int) {
        guard count > 0 else { return }
        self.position += Int64(count)
        self.unreported += Int64(count)
        let settings = self.receiver.settings
        let now = ContinuousClock.now
        if self.unreported >= Int64(settings.batchBytes) || now - self.lastReport >= settings.flushInterval {
            self.receiver.emit(.written(self.unreported))
            self.unreported = 0
            self.lastReport = now
        }
    }

    /// `--limit-rate`: waits (waking for a stop) until reading may go on.
    private func pace(_ count: Int) throws(Stop) {
        guard let limit = self.receiver.settings.rateLimit,
              let delay = limit.delay(after: count, now: .nanoseconds(Int64(clamping: NIODeadline.now().uptimeNanoseconds)))
        else { return }
        let until = ContinuousClock.now + delay
        while ContinuousClock.now < until {
            try self.checkStop()
            _ = try self.wait(for: 0, until: until)
        }
    }

    /// Waits for the socket to be readable: written bytes are reported first (the server went
    /// quiet), and no byte for the stall time fails the attempt.
    private func waitForData() throws(Stop) {
        if self.unreported > 0 {
            self.receiver.emit(.written(self.unreported))
            self.unreported = 0
            self.lastReport = .now
        }
        if case .timedOut = try self.wait(for: Int16(POLLIN), until: .now + self.receiver.settings.stallTimeout) {
            throw .outcome(.failed(.stalled))
        }
    }

    // MARK: TLS

    private enum TLSRead {
        /// Encrypted bytes came in (plaintext may or may not have come of them).
        case progress
        /// The server closed the connection.
        case end
        /// Nothing is waiting on the socket.
        case wouldBlock
    }

    private func startTLS(_ route: DirectRoute) throws(Stop) {
        guard let context = self.receiver.settings.tls, let peer = self.peer else {
            throw .outcome(.failed(.connection("internal: no TLS settings")))
        }
        do {
            self.tls = try DirectTLS(context: context, serverHostname: DirectTLS.serverHostname(for: route.host), peer: peer)
        } catch {
            throw .outcome(.failed(DownloadError(transport: error)))
        }
        self.cipher = ByteBufferAllocator().buffer(capacity: Self.smallestReceive)
    }

    /// The fewest encrypted bytes one receive asks for (a TLS record and its header).
    private static let smallestReceive = 16 * 1024 + 64
    /// The plaintext written at once: small enough that the bytes BoringSSL just decrypted are
    /// still in the cache when `pwrite` copies them.
    private static let plaintextBatch = 256 * 1024

    /// Drives the handshake to its end within the connect deadline: connecting is TCP and TLS
    /// (``DownloadConfiguration/connectTimeout``, as for AsyncHTTPClient's connections and
    /// curl's `--connect-timeout`), so a server that takes the connection and never finishes the
    /// handshake is a connect timeout, not a stall.
    private func awaitHandshake(until deadline: ContinuousClock.Instant) throws(Stop) {
        while let tls = self.tls, !tls.handshakeDone {
            switch try self.receiveTLS(upTo: Self.smallestReceive) {
            case .progress:
                continue
            case .end:
                throw .outcome(.failed(.connection(DownloadError.closedDuringHandshake)))
            case .wouldBlock:
                if case .timedOut = try self.wait(for: Int16(POLLIN), until: deadline) {
                    throw .outcome(.failed(.timedOut))
                }
            }
        }
    }

    /// Sends the encrypted bytes TLS has ready (handshake messages, the request, alerts).
    private func flushTLS() throws(Stop) {
        guard let tls = self.tls else { return }
        for buffer in tls.outbound() {
            let result = buffer.withUnsafeReadableBytes { bytes in Result { () throws(Stop) in try self.send(bytes) } }
            try result.get()
        }
    }

    /// Hands encrypted bytes to BoringSSL until `want` went in or nothing more waits, and decrypts
    /// them into ``plaintext`` (one buffer for the whole batch, so the file gets one write for
    /// it).
    ///
    /// Received bytes are kept and handed over `want` at a time, while each receive asks for a
    /// whole write batch (1 MiB): it takes what the socket holds in one call, and the window it
    /// opens is announced once, without decrypting more at once than the cache keeps for the
    /// write. Measured in session 12: `Benchmarks/RESULTS.md`.
    private func receiveTLS(upTo want: Int) throws(Stop) -> TLSRead {
        // After the server's close_notify nothing more counts: its socket may stay open a while.
        guard let tls = self.tls, !tls.closedByServer else { return .end }
        let ask = max(self.receiver.settings.batchBytes, Self.smallestReceive)
        var fed = 0
        var ended = false
        receiving: while fed < want {
            if self.cipher.readableBytes == 0 {
                var outcome: Result<Int, SocketCalls.Failure> = .success(0)
                self.cipher.clear()
                self.cipher.writeWithUnsafeMutableBytes(minimumWritableBytes: ask) { raw in
                    outcome = self.calls.recv(self.socket, UnsafeMutableRawBufferPointer(rebasing: raw[0..<ask]))
                    if case .success(let count) = outcome { return count }
                    return 0
                }
                switch outcome {
                case .success(0):
                    ended = true
                    break receiving
                case .success:
                    break
                case .failure(let failure) where failure.code == EAGAIN:
                    break receiving
                case .failure(let failure):
                    throw .outcome(.failed(.connection("receive: \(failure)")))
                }
            }
            guard let piece = self.cipher.readSlice(length: min(self.cipher.readableBytes, want - fed)) else { break }
            fed += piece.readableBytes
            do {
                try tls.feed(piece)
            } catch {
                throw .outcome(.failed(DownloadError(transport: error)))
            }
        }
        do {
            if let more = try tls.takePlaintext(), more.readableBytes > 0 {
                if var plaintext = self.plaintext, plaintext.readableBytes > 0 {
                    plaintext.writeImmutableBuffer(more)
                    self.plaintext = plaintext
                } else {
                    self.plaintext = more
                }
            }
        } catch {
            throw .outcome(.failed(DownloadError(transport: error)))
        }
        // The handshake's answers, and the request once the handshake is done.
        try self.flushTLS()
        if fed > 0 { return .progress }
        return ended ? .end : .wouldBlock
    }

    /// `recv(2)`, or through TLS the plaintext, with the same answers: bytes, 0 at the end,
    /// `EAGAIN` when nothing is waiting.
    private func receive(_ buffer: UnsafeMutableRawBufferPointer) throws(Stop) -> Result<Int, SocketCalls.Failure> {
        guard self.tls != nil else { return self.calls.recv(self.socket, buffer) }
        while true {
            if var plaintext = self.plaintext, plaintext.readableBytes > 0 {
                let count = min(plaintext.readableBytes, buffer.count)
                plaintext.withUnsafeReadableBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
                }
                plaintext.moveReaderIndex(forwardBy: count)
                self.plaintext = plaintext.readableBytes > 0 ? plaintext : nil
                return .success(count)
            }
            switch try self.receiveTLS(upTo: buffer.count) {
            case .progress: continue
            case .end: return .success(0)
            case .wouldBlock: return .failure(SocketCalls.Failure(EAGAIN))
            }
        }
    }

    /// A body delimited by its length or by the close, through TLS: each batch of plaintext is
    /// written from the buffer BoringSSL decrypted it into.
    private func receiveDecrypted(remaining start: Int64?) throws(Stop) -> DirectReceiver.Outcome {
        var remaining = start
        while remaining != 0 {
            try self.checkStop()
            if let limit = self.limit, self.position >= limit { return .ended }
            if (self.plaintext?.readableBytes ?? 0) == 0 {
                var want = min(self.receiver.settings.batchBytes, Self.plaintextBatch)
                if let rate = self.receiver.settings.rateLimit?.bytesPerSecond {
                    // Small steps keep a limited rate smooth.
                    want = Int(clamping: min(Int64(want), max(rate / 10, 16 * 1024)))
                }
                switch try self.receiveTLS(upTo: want) {
                case .progress:
                    break
                case .wouldBlock:
                    try self.waitForData()
                    continue
                case .end:
                    if let remaining, remaining > 0 {
                        return .failed(.connection(DownloadError.closedBeforeEnd(remaining: remaining)))
                    }
                    // A body that runs to the close is whole only if TLS ended it: a bare close
                    // may be anyone's cut.
                    if self.tls?.closedByServer != true {
                        return .failed(.connection("the server closed the connection without ending TLS (close_notify): the body may be cut short"))
                    }
                    return self.unverified > 0 ? .mismatch : .ended
                }
            }
            guard let plaintext = self.plaintext, plaintext.readableBytes > 0 else { continue }
            // Dropped before the write, so BoringSSL's next batch reuses the buffer.
            self.plaintext = nil
            let count = remaining.map { Int(min(Int64(plaintext.readableBytes), $0)) } ?? plaintext.readableBytes
            let result = plaintext.withUnsafeReadableBytes { bytes in
                Result { () throws(Stop) in try self.deliver(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
            }
            try result.get()
            remaining = remaining.map { $0 - Int64(count) }
            try self.pace(count)
        }
        return self.unverified > 0 ? .mismatch : .ended
    }

    // MARK: waiting

    /// Polls the socket for `events` (0: only the wake pipe) until `deadline`.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(Stop) -> Wait {
        var fds = [
            pollfd(fd: self.receiver.wakeRead, events: Int16(POLLIN), revents: 0),
            pollfd(fd: events == 0 ? -1 : self.socket, events: events, revents: 0),
        ]
        while true {
            let left = deadline - .now
            guard left > .zero else { return .timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000 + 1)
            if case .failure(let failure) = fds.withUnsafeMutableBufferPointer({ self.calls.poll($0, milliseconds) }) {
                throw .outcome(.failed(.connection("poll: \(failure)")))
            }
            if fds[0].revents != 0 {
                self.drain(self.receiver.wakeRead)
                try self.checkStop()
                return .woken
            }
            if fds[1].revents != 0 { return .ready }
        }
    }

    private func checkStop() throws(Stop) {
        if let reason = self.receiver.stopReason { throw .outcome(.failed(reason)) }
    }

    private func drain(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while case .success(let count) = bytes.withUnsafeMutableBytes({ self.calls.read(descriptor, $0) }), count > 0 {}
    }

    private func scratch() -> UnsafeMutableRawBufferPointer {
        if let buffer = self.buffer { return buffer }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(self.receiver.settings.batchBytes, 16 * 1024), alignment: 16)
        self.buffer = buffer
        return buffer
    }
}
#endif
