import NIOCore
import NIOHTTP1
import NIOSSL
import ResumeDataCodec
import Synchronization

/// The transport in use: each request on an ``UploadExchange`` of its own (SwiftNIO, TLS through
/// swift-nio-ssl), the body a chunk at a time, each write awaited, paced to the configured rate.
struct NIOUploadTransport: UploadTransport {
    let group: any EventLoopGroup
    let tls: NIOSSLContext
    let configuration: UploadConfiguration

    func exchange(
        _ head: HTTPRequestHead, to route: DirectRoute, via proxy: ProxySettings.Server?, body: Range<Int64>?, from source: UploadSource?,
        onConnected: () -> Void,
        onHead: @Sendable (_ status: Int, _ fields: [HTTPHeaderField], _ final: Bool) throws(UploadError) -> Void
    ) async throws(UploadError) -> UploadTransportResult {
        let exchange: UploadExchange
        do {
            exchange = try await UploadExchange.connect(
                to: route, via: proxy, tls: self.tls, group: self.group, limits: self.configuration.limits,
                connectTimeout: self.configuration.connectTimeout, stallTimeout: self.configuration.stallTimeout)
        } catch {
            return UploadTransportResult(broken: error)
        }
        defer { exchange.close() }
        onConnected()
        let sender = SenderState()
        let bodyLength = body.map { $0.upperBound - $0.lowerBound } ?? 0
        let rate = self.configuration.bytesPerSecond
        // A paced body goes in chunks of a quarter second at most, so the pauses between them stay
        // far below the stall timeout.
        let chunkSize = rate.map { min(self.configuration.chunkSize, Int(clamping: max($0 / 4, 4096))) } ?? self.configuration.chunkSize
        var final: (status: Int, fields: [HTTPHeaderField])?
        var broken: TransferError?
        var stop: UploadError?
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do throws(TransferError) {
                    try await exchange.send(head)
                    if let body, let source {
                        var pacer = rate.map(RatePacer.init(bytesPerSecond:))
                        let clock = ContinuousClock()
                        let start = clock.now
                        var position = body.lowerBound
                        while position < body.upperBound {
                            if Task.isCancelled { return }
                            let count = Int(min(Int64(chunkSize), body.upperBound - position))
                            let chunk: ByteBuffer
                            do throws(UploadError) {
                                chunk = try source.read(from: position, count: count)
                            } catch {
                                sender.state.withLock { $0.failure = error }
                                exchange.close()
                                return
                            }
                            // Counted before the write: the server may have it from here on.
                            sender.state.withLock { $0.sent += Int64(count) }
                            try await exchange.send(chunk) { sender.state.withLock { $0.written += Int64(count) } }
                            position += Int64(count)
                            if var running = pacer {
                                let delay = running.delay(after: count, now: clock.now - start)
                                pacer = running
                                if let delay { try? await Task.sleep(for: delay) }
                            }
                        }
                    }
                    try await exchange.end()
                } catch {
                    // The answer's side reports why the connection ended.
                }
            }
            do {
                for try await event in exchange.events {
                    switch event {
                    case .informational(let status, let fields):
                        do throws(UploadError) {
                            try onHead(status, fields, false)
                        } catch {
                            stop = error
                            exchange.close()
                            group.cancelAll()
                            return
                        }
                    case .final(let status, let fields):
                        // Only informational heads can stop the request (the final one ends it anyway).
                        try? onHead(status, fields, true)
                        final = (status, fields)
                        if sender.state.withLock({ $0.written }) < bodyLength {
                            // The server answered before the body ended: nothing more is sent.
                            group.cancelAll()
                            exchange.close()
                        }
                    }
                }
            } catch {
                broken = (error as? TransferError) ?? TransferError(transport: error)
                group.cancelAll()
            }
        }
        let (sent, written, failure) = sender.state.withLock { ($0.sent, $0.written, $0.failure) }
        if let stop { throw stop }
        if let failure { throw failure }
        return UploadTransportResult(final: final, broken: final == nil ? broken : nil, sent: sent, written: written)
    }

    /// What the body's task of one exchange shares with the answer's side.
    private final class SenderState: Sendable {
        struct Values {
            /// Body bytes handed to the connection (the server may have them).
            var sent: Int64 = 0
            /// Body bytes the connection wrote (counted on the event loop, before any answer after them).
            var written: Int64 = 0
            /// The file could not be read.
            var failure: UploadError?
        }
        let state = Mutex(Values())
    }
}
