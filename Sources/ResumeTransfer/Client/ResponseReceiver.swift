import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import ResumeDataCodec

/// Receives one response body on its NIO event loop and writes it on the engine's I/O thread.
///
/// The body arrives in buffers of at most 64 KiB. Handing each to a Swift task costs two thread
/// hops and a futex wake-up per buffer, which on two cores was most of the engine's time (issue
/// 13: 85 % of its system-call time in futex and epoll_wait). Here the buffers are gathered on the
/// event loop into batches of ``Settings/batchBytes`` and each batch is written with one `pwrite`
/// on ``ioThread``; the download loop hears of progress once per batch. Back-pressure comes from
/// the futures AsyncHTTPClient waits for before reading on: with ``Settings/batchesInFlight``
/// batches not yet written, or when ``RatePacer`` asks for a pause, the next read waits. Memory per
/// response is thus bounded by `(batchesInFlight + 1) × batchBytes`.
///
/// All mutable state is touched only on `eventLoop` (the delegate's callbacks run there and the
/// loop's calls hop there), which is why the class is `@unchecked Sendable`.
final class ResponseReceiver: HTTPClientResponseDelegate, SegmentReceiver, @unchecked Sendable {
    typealias Response = Void

    struct Settings: Sendable {
        /// Bytes gathered before one `pwrite` (issue 13 asks for at least 1 MiB).
        var batchBytes = 1 << 20
        /// Batches handed to the I/O thread and not yet written before reading stops.
        var batchesInFlight = 2
        /// A batch smaller than `batchBytes` is written anyway when this long has passed since the
        /// last one, so a slow download still shows progress and reaches its checkpoints.
        var flushInterval: TimeAmount = .milliseconds(100)
        /// `--limit-rate`: reading pauses so that the download's bodies (all its connections
        /// together) arrive at most this fast.
        var rateLimit: SharedRatePacer?
        /// How long the response head may take.
        var responseTimeout: TimeAmount = .seconds(60)
        /// A body that is not wanted (redirect, error page) is read up to this size so the
        /// connection can be reused; a longer one is abandoned.
        var discardLimit = 64 * 1024
    }

    /// The one thread every body write of the process runs on: never one of the Swift concurrency
    /// pool's threads (two on this machine, where blocking one halves the pool), never the event
    /// loop (receiving goes on while a batch is written).
    static let ioThread: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    private enum Mode {
        case waitingForHead
        /// The head went to the loop. Body bytes arriving meanwhile are held here rather than
        /// left to AsyncHTTPClient, which drops what it buffers when the connection then fails.
        /// Beyond one batch, reading waits (`waiter`).
        case waitingForDecision(held: [ByteBuffer], heldBytes: Int, waiter: EventLoopPromise<Void>?)
        case writing
        case discarding(seen: Int)
        /// Nothing more is read or written (the HTTP side is over, or the loop stopped it).
        case done
    }

    private enum WriteOutcome: Sendable {
        /// Bytes written; with an error, the write stopped after them.
        case written(Int64, TransferError?)
        case mismatch
    }

    let eventLoop: any EventLoop
    /// Tags this receiver's events in a queue shared with others.
    let tag: Int
    /// Let go at the last event: the download may reopen (and lock) the partial file at once,
    /// while AsyncHTTPClient may keep this delegate a while longer.
    private var part: PartialFile?
    private let settings: Settings
    private let events: ResponseEvent.Queue

    private var task: HTTPClient.Task<Void>?
    private var mode: Mode = .waitingForHead
    /// The body's length as the head stated it, and the body bytes seen (whatever became of
    /// them): how far short an early close left the body.
    private var statedBody: Int64?
    private var seenBody: Int64 = 0
    /// The file position of the next body byte.
    private var position: Int64 = 0
    /// Body bytes still to compare with the file rather than write.
    private var unverified: Int64 = 0
    /// Stop at this file position (a segment's end); nil: the whole body.
    private var limit: Int64?
    private var pending: ByteBuffer?
    private var pendingStart: Int64 = 0
    private var inFlight = 0
    private var roomWaiter: EventLoopPromise<Void>?
    private var lastFlush = NIODeadline.now()
    /// The HTTP side is over: no more body parts will come.
    private var httpFinished = false
    /// The HTTP side ended cleanly (didFinishRequest), not with an error.
    private var endedCleanly = false
    /// The loop answered the head (or no head will come).
    private var decided = false
    /// Why the response stopped early; decides the last event. Set once.
    private var failure: TransferError?
    private var mismatch = false
    /// A write failed or mismatched: later batches are not counted (they would leave a hole).
    private var poisoned = false
    private var terminalSent = false
    private var stopRequested: TransferError?
    private var headTimer: Scheduled<Void>?
    /// Writes a partial batch when the server goes quiet, so the bytes of a stalled response
    /// reach the disk (and the progress reports) without waiting for the stall timeout.
    private var flushTimer: Scheduled<Void>?

    /// Events go to `events`; the caller must then ``attach(_:)`` the HTTP task.
    init(eventLoop: any EventLoop, tag: Int = 0, part: PartialFile, settings: Settings, events: ResponseEvent.Queue) {
        self.eventLoop = eventLoop
        self.tag = tag
        self.part = part
        self.settings = settings
        self.events = events
    }

    // MARK: calls from the download loop (any thread)

    /// The HTTP task this receiver serves, so it can be cancelled.
    func attach(_ task: HTTPClient.Task<Void>) {
        self.eventLoop.execute {
            self.task = task
            if let reason = self.stopRequested {
                self.stopRequested = nil
                self.stop(reason)
                return
            }
            if case .waitingForHead = self.mode {
                self.headTimer = self.eventLoop.scheduleTask(in: self.settings.responseTimeout) {
                    if case .waitingForHead = self.mode { self.stop(.timedOut) }
                }
            }
        }
    }

    /// Write the body: its first byte is the file's byte at `position`; the first `overlap` bytes
    /// must repeat what the file holds and are compared, not written. With `limit`, the
    /// response ends (cleanly) at that file position.
    func accept(at position: Int64, verifying overlap: Int64, upTo limit: Int64?) {
        self.eventLoop.execute {
            guard case .waitingForDecision(let held, _, let waiter) = self.mode else { return }
            self.decided = true
            self.mode = .writing
            self.position = position
            self.pendingStart = position
            self.unverified = overlap
            self.limit = limit
            self.lastFlush = .now()
            for buffer in held where self.isWriting {
                _ = self.append(buffer)
            }
            if self.httpFinished {
                self.finishWriting()
            } else if let limit, self.position >= limit {
                self.reachLimit()
            }
            waiter?.succeed(())
            self.terminateIfSettled()
        }
    }

    /// Read and drop the body (a small one keeps the connection reusable).
    func discard() {
        self.eventLoop.execute {
            guard case .waitingForDecision(let held, let heldBytes, let waiter) = self.mode else { return }
            self.decided = true
            self.mode = self.httpFinished ? .done : .discarding(seen: heldBytes)
            _ = held
            waiter?.succeed(())
            if heldBytes > self.settings.discardLimit { self.stop(.cancelled) }
            self.terminateIfSettled()
        }
    }

    /// Moves the limit down to `proposed`, or to the first byte not yet received when that is
    /// further; nil when the response is not writing or would keep nothing back. What it gives
    /// up is then another connection's to fetch.
    func shrink(to proposed: Int64) async -> Int64? {
        let promise = self.eventLoop.makePromise(of: Int64?.self)
        self.eventLoop.execute {
            guard case .writing = self.mode, let limit = self.limit else { return promise.succeed(nil) }
            let end = max(proposed, self.position)
            guard end < limit else { return promise.succeed(nil) }
            self.limit = end
            if self.position >= end { self.reachLimit() }
            promise.succeed(end)
        }
        return (try? await promise.futureResult.get()) ?? nil
    }

    /// Stop the response (the bytes received so far are still written); the last event is
    /// ``ResponseEvent/failed(_:)`` with `reason` unless the response had ended already.
    func stop(reason: TransferError) {
        self.eventLoop.execute { self.stop(reason) }
    }

    // MARK: the delegate (on the event loop)

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.headTimer?.cancel()
        guard case .waitingForHead = self.mode else { return self.eventLoop.makeSucceededVoidFuture() }
        self.mode = .waitingForDecision(held: [], heldBytes: 0, waiter: nil)
        // NIO's decoder refuses a negative length; kept out here too, so the subtraction in
        // failure(for:) is of two counts that are never negative.
        self.statedBody = head.headers.first(name: "content-length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        self.events.yield(.head(status: Int(head.status.code), headers: HTTPHeaderField.fields(of: head.headers)), from: self.tag)
        return self.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        self.seenBody += Int64(buffer.readableBytes)
        switch self.mode {
        case .waitingForDecision(var held, let heldBytes, let waiter):
            held.append(buffer)
            let total = heldBytes + buffer.readableBytes
            let pause = self.pace(after: buffer.readableBytes)
            guard total >= self.settings.batchBytes else {
                self.mode = .waitingForDecision(held: held, heldBytes: total, waiter: waiter)
                return pause ?? self.eventLoop.makeSucceededVoidFuture()
            }
            let promise = waiter ?? self.eventLoop.makePromise(of: Void.self)
            self.mode = .waitingForDecision(held: held, heldBytes: total, waiter: promise)
            return pause.map { $0.and(promise.futureResult).map { _ in } } ?? promise.futureResult
        case .discarding(let seen):
            let total = seen + buffer.readableBytes
            self.mode = .discarding(seen: total)
            if total > self.settings.discardLimit { self.stop(.cancelled) }
            return self.eventLoop.makeSucceededVoidFuture()
        case .writing:
            let count = self.append(buffer)
            guard self.isWriting else { return self.eventLoop.makeSucceededVoidFuture() }
            return self.backPressure(after: count)
        case .waitingForHead, .done:
            return self.eventLoop.makeSucceededVoidFuture()
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        self.headTimer?.cancel()
        guard !self.httpFinished else { return }
        if self.failure == nil { self.failure = self.failure(for: error) }
        self.finishHTTP()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        self.headTimer?.cancel()
        guard !self.httpFinished else { return }
        self.endedCleanly = true
        self.finishHTTP()
    }

    // MARK: internals (on the event loop)

    /// What `error` ended: an early close in the words of the direct path, which say how far the
    /// answer got.
    private func failure(for error: any Error) -> TransferError {
        guard TransferError.isEarlyClose(error) else { return TransferError(transport: error) }
        if case .waitingForHead = self.mode { return .connection(.closedBeforeHead) }
        return .connection(.closedBeforeEnd(remaining: self.statedBody.map { max($0 - self.seenBody, 0) }))
    }

    private var isWriting: Bool {
        if case .writing = self.mode { return true }
        return false
    }

    /// Gathers `buffer` (cut at the limit); returns the bytes taken.
    private func append(_ buffer: ByteBuffer) -> Int {
        var slice = buffer
        var reachedLimit = false
        if let limit = self.limit {
            let room = limit - self.position
            if room <= Int64(slice.readableBytes) {
                slice = slice.getSlice(at: slice.readerIndex, length: Int(max(room, 0))) ?? ByteBuffer()
                reachedLimit = true
            }
        }
        let count = slice.readableBytes
        if count > 0 {
            if self.pending == nil {
                self.pending = ByteBufferAllocator().buffer(capacity: max(self.settings.batchBytes, count))
                self.pendingStart = self.position
            }
            self.pending?.writeImmutableBuffer(slice)
            self.position += Int64(count)
            if self.flushTimer == nil {
                self.flushTimer = self.eventLoop.scheduleTask(in: self.settings.flushInterval) {
                    self.flushTimer = nil
                    if self.isWriting, NIODeadline.now() - self.lastFlush >= self.settings.flushInterval { self.flush() }
                }
            }
        }
        if reachedLimit {
            self.reachLimit()
        } else if (self.pending?.readableBytes ?? 0) >= self.settings.batchBytes || NIODeadline.now() - self.lastFlush >= self.settings.flushInterval {
            self.flush()
        }
        return count
    }

    /// The segment is complete; the rest of this response belongs to another.
    private func reachLimit() {
        self.httpFinished = true
        self.mode = .done
        self.flush()
        self.task?.cancel()
        self.terminateIfSettled()
    }

    /// The future AsyncHTTPClient waits for before reading on: batches in flight, the rate limit.
    private func backPressure(after count: Int) -> EventLoopFuture<Void> {
        var wait: EventLoopFuture<Void>?
        if self.inFlight >= self.settings.batchesInFlight {
            let promise = self.eventLoop.makePromise(of: Void.self)
            self.roomWaiter = promise
            wait = promise.futureResult
        }
        if let timer = self.pace(after: count) {
            wait = wait.map { $0.and(timer).map { _ in } } ?? timer
        }
        return wait ?? self.eventLoop.makeSucceededVoidFuture()
    }

    /// `--limit-rate`: a future that completes when reading may go on, nil when it may at once.
    /// Every body byte counts, the ones held before the loop's answer too.
    private func pace(after count: Int) -> EventLoopFuture<Void>? {
        guard let limit = self.settings.rateLimit,
              let delay = limit.delay(after: count, now: .nanoseconds(Int64(clamping: NIODeadline.now().uptimeNanoseconds)))
        else { return nil }
        return self.eventLoop.scheduleTask(in: delay.timeAmount) {}.futureResult
    }

    /// Hands the gathered bytes to the I/O thread.
    private func flush() {
        self.lastFlush = .now()
        guard let batch = self.pending, batch.readableBytes > 0, !self.poisoned else {
            self.pending = nil
            return
        }
        self.pending = nil
        guard let part = self.part else { return }
        let start = self.pendingStart
        let verify = Int(min(self.unverified, Int64(batch.readableBytes)))
        self.unverified -= Int64(verify)
        self.inFlight += 1
        Self.ioThread.runIfActive(eventLoop: self.eventLoop) { () -> WriteOutcome in
            Self.write(batch, at: start, verifying: verify, into: part)
        }.whenComplete { result in
            self.inFlight -= 1
            switch result {
            case .success(.written(let count, let error)):
                if !self.poisoned, count > 0 { self.events.yield(.written(count), from: self.tag) }
                if let error {
                    self.poisoned = true
                    self.failure = error
                    self.stop(error)
                }
            case .success(.mismatch):
                self.poisoned = true
                self.mismatch = true
                self.stop(.cancelled)
            case .failure(let error):
                self.poisoned = true
                self.failure = .disk("write \(part.path): the I/O thread is not running (\(error))")
                self.stop(.cancelled)
            }
            if self.inFlight < self.settings.batchesInFlight, let waiter = self.roomWaiter {
                self.roomWaiter = nil
                waiter.succeed(())
            }
            self.terminateIfSettled()
        }
    }

    /// On the I/O thread: compare the first `verify` bytes, write the rest.
    private static func write(_ batch: ByteBuffer, at start: Int64, verifying verify: Int, into part: PartialFile) -> WriteOutcome {
        batch.withUnsafeReadableBytes { bytes -> WriteOutcome in
            var done = 0
            do throws(TransferError) {
                if verify > 0 {
                    guard try part.holds(UnsafeRawBufferPointer(rebasing: bytes[0..<verify]), at: start) else { return .mismatch }
                }
                let rest = UnsafeRawBufferPointer(rebasing: bytes[verify...])
                guard !rest.isEmpty else { return .written(0, nil) }
                // No sync_file_range here: starting write-back after each batch made a durable
                // 1 GiB download 1.4x slower on this machine's disk (Benchmarks/RESULTS.md).
                try part.write(rest, at: start + Int64(verify), progress: &done)
                return .written(Int64(rest.count), nil)
            } catch {
                // What a short write put on disk before the failure still counts.
                return .written(Int64(done), error)
            }
        }
    }

    private func stop(_ reason: TransferError) {
        if case .waitingForDecision(_, _, let waiter) = self.mode {
            // Stopped instead of answered: the held bytes are not wanted.
            self.decided = true
            self.mode = .done
            waiter?.succeed(())
        }
        guard let task = self.task else {
            self.stopRequested = self.stopRequested ?? reason
            return
        }
        if self.failure == nil, !self.httpFinished { self.failure = reason }
        task.cancel()
        self.terminateIfSettled()
    }

    private func finishHTTP() {
        self.httpFinished = true
        switch self.mode {
        case .writing:
            self.finishWriting()
        case .waitingForDecision:
            // Finished when the loop decides (the held bytes may still be wanted).
            return
        case .waitingForHead:
            // No head will come: nothing to decide.
            self.decided = true
            self.mode = .done
        case .discarding, .done:
            self.mode = .done
        }
        self.terminateIfSettled()
    }

    /// The HTTP side is over while writing: write what is gathered (bytes received before a
    /// failure are the server's all the same).
    private func finishWriting() {
        self.mode = .done
        self.flush()
        if self.endedCleanly, self.unverified > 0, self.failure == nil {
            // A body that ended before repeating the bytes it had to repeat proved nothing.
            self.mismatch = true
        }
    }

    private func terminateIfSettled() {
        guard self.httpFinished, self.decided, self.inFlight == 0, !self.terminalSent else { return }
        self.terminalSent = true
        self.part = nil
        self.flushTimer?.cancel()
        self.flushTimer = nil
        self.headTimer?.cancel()
        if let waiter = self.roomWaiter {
            self.roomWaiter = nil
            waiter.succeed(())
        }
        if self.mismatch {
            self.events.yield(.overlapMismatched, from: self.tag)
        } else if let failure = self.failure {
            self.events.yield(.failed(failure), from: self.tag)
        } else {
            self.events.yield(.ended, from: self.tag)
        }
    }
}
