#if os(Linux)
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import ResumeDataCodec
import ResumeSystemCalls
import Synchronization

import Glibc

/// The TLS steps of an `https` route (``DirectTLS`` between the socket and the HTTP framing).
extension DirectConnection {
    private enum TLSRead {
        /// Encrypted bytes came in (plaintext may or may not have come of them).
        case progress
        /// The server closed the connection.
        case end
        /// Nothing is waiting on the socket.
        case wouldBlock
    }

    func startTLS(_ route: DirectRoute) throws(Stop) {
        guard let context = self.receiver.settings.tls, let peer = self.peer else {
            throw .outcome(.failed(.connection(.other("internal: no TLS settings"))))
        }
        do {
            self.tls = try DirectTLS(context: context, serverHostname: DirectTLS.serverHostname(for: route.host), peer: peer)
        } catch {
            throw .outcome(.failed(TransferError(transport: error)))
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
    func awaitHandshake(until deadline: ContinuousClock.Instant) throws(Stop) {
        while let tls = self.tls, !tls.handshakeDone {
            switch try self.receiveTLS(upTo: Self.smallestReceive) {
            case .progress:
                continue
            case .end:
                throw .outcome(.failed(.connection(.closedDuringHandshake)))
            case .wouldBlock:
                if case .timedOut = try self.wait(for: Int16(POLLIN), until: deadline) {
                    throw .outcome(.failed(.timedOut))
                }
            }
        }
    }

    /// Sends the encrypted bytes TLS has ready (handshake messages, the request, alerts).
    func flushTLS() throws(Stop) {
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
                    throw .outcome(.failed(.connection(.systemCall("receive", reason: failure.description))))
                }
            }
            guard let piece = self.cipher.readSlice(length: min(self.cipher.readableBytes, want - fed)) else { break }
            fed += piece.readableBytes
            do {
                try tls.feed(piece)
            } catch {
                throw .outcome(.failed(TransferError(transport: error)))
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
            throw .outcome(.failed(TransferError(transport: error)))
        }
        // The handshake's answers, and the request once the handshake is done.
        try self.flushTLS()
        if fed > 0 { return .progress }
        return ended ? .end : .wouldBlock
    }

    /// `recv(2)`, or through TLS the plaintext, with the same answers: bytes, 0 at the end,
    /// `EAGAIN` when nothing is waiting.
    func receive(_ buffer: UnsafeMutableRawBufferPointer) throws(Stop) -> Result<Int, SocketCalls.Failure> {
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
    func receiveDecrypted(remaining start: Int64?) throws(Stop) -> DirectReceiver.Outcome {
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
                        return .failed(.connection(.closedBeforeEnd(remaining: remaining)))
                    }
                    // A body that runs to the close is whole only if TLS ended it: a bare close
                    // may be anyone's cut.
                    if self.tls?.closedByServer != true {
                        return .failed(.connection(.closedWithoutTLSEnd))
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
}
#endif
