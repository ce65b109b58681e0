#if os(Linux)
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import ResumeDataCodec
import ResumeSystemCalls
import Synchronization

import Glibc

/// The socket side of one ``DirectReceiver`` response: connecting, the request, the head and the
/// body (spliced, decoded or decrypted), paced and bounded by the engine's timeouts. It lives
/// on the receiver's thread; its TLS steps are in `DirectConnection+TLS.swift`.
final class DirectConnection {
    /// Why the body loop stopped early.
    enum Stop: Error {
        case outcome(DirectReceiver.Outcome)
    }

    enum Wait {
        case ready
        case woken
        case timedOut
    }

    let receiver: DirectReceiver
    let calls: SocketCalls
    private let framing: HTTP1Framing
    var socket: Int32 = -1
    private var pipe: (read: Int32, write: Int32) = (-1, -1)
    private var pipeCapacity = 64 * 1024
    private var buffer: UnsafeMutableRawBufferPointer?
    /// The address connected to (hostname verification compares an IP address with it).
    var peer: SocketAddress?
    /// TLS on the socket, for an `https` route.
    var tls: DirectTLS?
    /// Decrypted bytes not yet taken.
    var plaintext: ByteBuffer?
    /// Encrypted bytes as received; one buffer, reused.
    var cipher = ByteBuffer()
    /// Body bytes written and not yet reported.
    private(set) var unreported: Int64 = 0
    private var lastReport = ContinuousClock.now
    /// The file position of the next body byte.
    var position: Int64 = 0
    /// Body bytes still to compare with the file rather than write.
    var unverified: Int64 = 0
    /// The body was accepted up to a limit (a segment of `--connections`), which
    /// ``DirectReceiver/shrink(to:)`` may move down: its end is then read, and each write claimed,
    /// under the receiver's lock. A whole body's end never moves, so one stream takes no lock.
    private var bounded = false
    /// Whether the socket wakes the receiver only once ``receiveLowWater`` bytes wait.
    private var lowWater = false
    /// How many received bytes wake the receiver during a body. At every packet, four
    /// connections woke it tens of thousands of times per 512 MiB. With a quarter MiB per wake
    /// the download spends about a quarter less CPU, on one connection and on four
    /// (Benchmarks/RESULTS.md, "Fewer wakes").
    static let receiveLowWater: Int32 = 256 * 1024
    /// How long the receiver waits for the low-water mark before it takes what is there: a
    /// slow server's bytes still come in this often, and only silence counts as a stall.
    static let gatherInterval: Duration = .milliseconds(20)
    /// Where the body stops (nil: at its end).
    var limit: Int64? { self.bounded ? self.receiver.limit : nil }

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
                return .failed(.connection(.other("internal: the request could not be framed")))
            }
            let connectDeadline = min(start + settings.connectTimeout, headDeadline)
            try self.connect(route, deadline: connectDeadline)
            if route.usesTLS {
                try self.startTLS(route)
                do {
                    try self.tls?.write(request)
                } catch {
                    return .failed(TransferError(transport: error))
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
                self.bounded = limit != nil
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
        let addresses: [ResolvedAddress]
        switch self.calls.resolve(route.host, route.port) {
        case .success(let found): addresses = found
        case .failure(let failure): throw .outcome(.failed(.cannotResolve(host: route.host, reason: failure.description)))
        }
        var lastError = "no address"
        for address in addresses {
            try self.checkStop()
            let fd: Int32
            switch self.calls.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)) {
            case .success(let opened): fd = opened
            case .failure(let failure):
                lastError = failure.description
                continue
            }
            let connected = address.withSocketAddress { self.calls.connect(fd, $0, $1) }
            // EALREADY: a connect interrupted by a signal and retried goes on in the background.
            if case .failure(let failure) = connected, failure.code != EINPROGRESS, failure.code != EALREADY {
                lastError = failure.description
            } else {
                self.socket = fd
                switch try self.wait(for: Int16(POLLOUT), until: deadline) {
                case .ready:
                    let pending = self.calls.pendingError(fd)
                    if case .success(0) = pending {
                        self.peer = Self.socketAddress(address, host: route.host)
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
        throw .outcome(.failed(.connection(.cannotConnect(host: route.host, port: route.port, reason: lastError))))
    }

    private static func socketAddress(_ address: ResolvedAddress, host: String) -> SocketAddress? {
        address.withSocketAddress { raw, _ in
            switch address.family {
            case AF_INET: raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            case AF_INET6: raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            default: nil
            }
        }
    }

    func send(_ request: [UInt8]) throws(Stop) {
        let result = request.withUnsafeBytes { bytes in Result { () throws(Stop) in try self.send(bytes) } }
        try result.get()
    }

    func send(_ bytes: UnsafeRawBufferPointer) throws(Stop) {
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
                throw .outcome(.failed(.connection(.systemCall("send", reason: "no byte sent"))))
            case .failure(let failure):
                throw .outcome(.failed(.connection(.systemCall("send", reason: failure.description))))
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
                let result = Result { () throws(TransferError) in try reader.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
                switch result {
                case .success(let head?): return head
                case .success(nil): continue
                case .failure(let error): throw .outcome(.failed(error))
                }
            case .success:
                throw .outcome(.failed(.connection(.closedBeforeHead)))
            case .failure(let failure) where failure.code == EAGAIN:
                switch try self.wait(for: Int16(POLLIN), until: min(deadline, stallDeadline)) {
                case .ready, .woken: break
                case .timedOut:
                    throw .outcome(.failed(ContinuousClock.now >= deadline ? .timedOut : .stalled))
                }
            case .failure(let failure):
                throw .outcome(.failed(.connection(.systemCall("receive", reason: failure.description))))
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
        self.raiseLowWater()
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
            if let rate = self.receiver.settings.rateLimit?.bytesPerSecond {
                // Small steps keep a limited rate smooth.
                want = min(want, max(rate / 10, 16 * 1024))
            }
            if self.bounded {
                // The segment's end may have moved down since the check above.
                want = self.receiver.claim(from: self.position, count: want)
                if want <= 0 { return .ended }
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
                        return .failed(.connection(.closedBeforeEnd(remaining: remaining)))
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
            return .failed(.connection(.invalidResponse("invalid body from the server: \(error)")))
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
                    return .failed(.connection(.invalidResponse("a second response head inside the body")))
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
                        return .failed(.connection(.closedBeforeEnd(remaining: nil)))
                    }
                case .failure(let failure) where failure.code == EAGAIN:
                    parts = []
                    try self.waitForData()
                case .failure(let failure):
                    return .failed(.connection(.systemCall("receive", reason: failure.description)))
                }
            } catch let stop as Stop {
                throw stop
            } catch {
                return .failed(.connection(.invalidResponse("invalid body from the server: \(error)")))
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
        case .failure(let failure): throw .outcome(.failed(.connection(.systemCall("receive", reason: failure.description))))
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
        case .failure(let failure): throw .outcome(.failed(.connection(.systemCall("receive", reason: failure.description))))
        }
        if count > 0 { try self.deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
        return count
    }

    func deliver(_ bytes: some Collection<UInt8>) throws(Stop) {
        let result = Array(bytes).withUnsafeBytes { raw in Result { () throws(Stop) in try self.deliver(raw) } }
        try result.get()
    }

    /// Compares the bytes the file must already hold, writes the rest (up to the limit).
    func deliver(_ bytes: UnsafeRawBufferPointer) throws(Stop) {
        var bytes = bytes
        if self.bounded {
            bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(self.receiver.claim(from: self.position, count: Int64(bytes.count)))])
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
    func pace(_ count: Int) throws(Stop) {
        guard let limit = self.receiver.settings.rateLimit,
              let delay = limit.delay(after: count, now: .nanoseconds(Int64(clamping: NIODeadline.now().uptimeNanoseconds)))
        else { return }
        if self.bounded { self.receiver.settle(at: self.position) }
        let until = ContinuousClock.now + delay
        while ContinuousClock.now < until {
            try self.checkStop()
            _ = try self.wait(for: 0, until: until)
        }
    }

    /// Waits for the socket to be readable: written bytes are reported first (the server went
    /// quiet), and no byte for the stall time fails the attempt.
    func waitForData() throws(Stop) {
        if self.bounded { self.receiver.settle(at: self.position) }
        if self.unreported > 0 {
            self.receiver.emit(.written(self.unreported))
            self.unreported = 0
            self.lastReport = .now
        }
        let stallDeadline = ContinuousClock.now + self.receiver.settings.stallTimeout
        while true {
            // Below the low-water mark poll stays quiet, so what waits is looked at every gather
            // interval: a slow server's bytes are taken, and only no byte at all is a stall.
            let until = self.lowWater ? min(ContinuousClock.now + Self.gatherInterval, stallDeadline) : stallDeadline
            switch try self.wait(for: Int16(POLLIN), until: until) {
            case .ready, .woken:
                return
            case .timedOut:
                if self.lowWater {
                    switch self.calls.pendingBytes(self.socket) {
                    case .success(let count) where count > 0:
                        return
                    case .success:
                        break
                    case .failure(let failure):
                        throw .outcome(.failed(.connection(.systemCall("ioctl(FIONREAD)", reason: failure.description))))
                    }
                }
                if ContinuousClock.now >= stallDeadline { throw .outcome(.failed(.stalled)) }
            }
        }
    }

    /// Sets the socket's low-water mark for the body (``receiveLowWater``), unless a rate limit
    /// reads in small steps anyway. A system that refuses it loses only the saving.
    private func raiseLowWater() {
        guard self.receiver.settings.rateLimit == nil else { return }
        if case .success = self.calls.setReceiveLowWater(self.socket, Self.receiveLowWater) { self.lowWater = true }
    }

    // MARK: waiting

    /// Polls the socket for `events` (0: only the wake pipe) until `deadline`.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(Stop) -> Wait {
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
                throw .outcome(.failed(.connection(.systemCall("poll", reason: failure.description))))
            }
            if fds[0].revents != 0 {
                self.drain(self.receiver.wakeRead)
                try self.checkStop()
                return .woken
            }
            if fds[1].revents != 0 { return .ready }
        }
    }

    func checkStop() throws(Stop) {
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
