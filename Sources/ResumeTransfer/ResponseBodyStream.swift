import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// One GET through AsyncHTTPClient's delegate API, its body handed to an async consumer with up to
/// ``highWater`` bytes buffered in between.
///
/// Why not `HTTPClientResponse.body`: AsyncHTTPClient's async body sequence holds one buffer at a
/// time (watermarks 1 and 1), so the event loop stops reading until the consumer has written the
/// previous buffer (at most 64 KiB) to disk, and every buffer costs two thread hops. On a loaded
/// 2-core machine that lock-step held downloads to a fraction of curl's speed (see
/// Benchmarks/RESULTS.md). Here the event loop keeps reading while the consumer writes, and only
/// waits when ``highWater`` bytes are queued, which also bounds the memory the queue can take.
final class ResponseBodyStream: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    /// Bytes queued before the event loop stops reading.
    static let highWater = 4 << 20

    private struct State {
        var buffered = 0
        var headDone = false
        var paused: EventLoopPromise<Void>?
        var headTimeout: Scheduled<Void>?
        var task: HTTPClient.Task<Void>?
    }

    let body: AsyncThrowingStream<ByteBuffer, any Error>
    private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private let head: EventLoopPromise<HTTPResponseHead>
    private let state = Mutex(State())

    private init(eventLoop: any EventLoop) {
        (self.body, self.continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        self.head = eventLoop.makePromise(of: HTTPResponseHead.self)
    }

    /// Sends `request`; returns the stream once the response head arrived (or throws what
    /// AsyncHTTPClient reported, `HTTPClientError.deadlineExceeded` after `timeout`).
    static func execute(
        _ request: HTTPClient.Request, client: HTTPClient, timeout: TimeAmount
    ) async throws -> (head: HTTPResponseHead, stream: ResponseBodyStream) {
        // Any loop will do for the head promise and the timer; the request runs on its connection's.
        let eventLoop = client.eventLoopGroup.any()
        let stream = ResponseBodyStream(eventLoop: eventLoop)
        let task = client.execute(request: request, delegate: stream, eventLoop: .indifferent)
        let timer = eventLoop.scheduleTask(in: timeout) {
            task.fail(reason: HTTPClientError.deadlineExceeded)
        }
        stream.state.withLock {
            $0.task = task
            $0.headTimeout = timer
        }
        stream.continuation.onTermination = { [weak stream] _ in stream?.cancel() }
        let head = try await withTaskCancellationHandler {
            try await stream.head.futureResult.get()
        } onCancel: {
            task.cancel()
        }
        return (head, stream)
    }

    /// Called by the consumer after it dealt with a buffer of `count` bytes: lets the event loop
    /// read on once the queue is back under half of ``highWater``.
    func consumed(_ count: Int) {
        let resume = self.state.withLock { state -> EventLoopPromise<Void>? in
            state.buffered -= count
            guard state.buffered <= Self.highWater / 2, let paused = state.paused else { return nil }
            state.paused = nil
            return paused
        }
        resume?.succeed()
    }

    /// Stops the request (no-op once it finished); the consumer is done with the body.
    func cancel() {
        let (task, paused) = self.state.withLock { state in
            defer { state.paused = nil }
            return (state.task, state.paused)
        }
        task?.cancel()
        paused?.succeed()
    }

    // MARK: HTTPClientResponseDelegate, called on the event loop

    /// The head promise is completed once: by the head, or by the first error.
    private func settleHead(_ result: Result<HTTPResponseHead, any Error>) {
        let timer = self.state.withLock { state -> Scheduled<Void>?? in
            if state.headDone { return nil }
            state.headDone = true
            return .some(state.headTimeout)
        }
        guard let timer else { return }
        timer?.cancel()
        self.head.completeWith(result)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.settleHead(.success(head))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let count = buffer.readableBytes
        self.continuation.yield(buffer)
        return self.state.withLock { state -> EventLoopFuture<Void> in
            state.buffered += count
            guard state.buffered > Self.highWater else { return task.eventLoop.makeSucceededVoidFuture() }
            let paused = task.eventLoop.makePromise(of: Void.self)
            state.paused = paused
            return paused.futureResult
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        self.settleHead(.failure(error))
        self.continuation.finish(throwing: error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        self.continuation.finish()
    }
}
