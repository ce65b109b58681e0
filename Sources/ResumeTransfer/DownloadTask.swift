import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// One download: performs what the download state machine decides, writing into `partialPath` and
/// checkpointing into `resumeDataPath`, and moving the verified file to `destination` at the end.
public final class DownloadTask: Sendable {
    /// Where the finished file goes. It never holds a partial or unverified file.
    public let destination: String
    /// The partial file (`FILE.part` unless a resume blob named another).
    public let partialPath: String
    /// The resume blob (`FILE.resume`), rewritten atomically at every checkpoint.
    public let resumeDataPath: String
    /// Progress, restarts, retries and state changes, in order. Finishes when the download stops.
    public let events: AsyncStream<DownloadEvent>

    /// Where the first checkpoint comes from.
    enum Origin: Sendable {
        /// A URL: continue from an existing blob or partial file at the usual paths, else start.
        case url(String, headers: [HTTPField])
        /// A decoded blob.
        case checkpoint(DownloadCheckpoint)
    }

    private enum Intent: Sendable {
        case run
        case pause
        case cancel(removeFile: Bool)
    }

    private struct Shared: Sendable {
        var state: DownloadState = .queued
        var intent: Intent = .run
        var runner: Task<DownloadState, Never>?
        var foundComplete = false
    }

    private let origin: Origin
    private let expectedSHA256: String?
    /// What the caller should know before the download starts (blob paths that were ignored).
    private let warnings: [String]
    private let configuration: DownloadConfiguration
    /// Every file-system call goes through here (a fake in the fault-injection tests).
    private let files: FileSystem
    private let continuation: AsyncStream<DownloadEvent>.Continuation
    private let shared = Mutex(Shared())

    init(
        origin: Origin, destination: String, partialPath: String? = nil,
        expectedSHA256: String?, configuration: DownloadConfiguration, warnings: [String] = [],
        calls: FileSystemCalls = .system
    ) {
        self.origin = origin
        self.files = FileSystem(calls: calls)
        self.warnings = warnings
        self.destination = destination
        self.partialPath = partialPath ?? destination + ".part"
        self.resumeDataPath = destination + ".resume"
        self.expectedSHA256 = expectedSHA256?.lowercased()
        self.configuration = configuration
        (self.events, self.continuation) = AsyncStream.makeStream(of: DownloadEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// A task that never runs, for a blob that cannot be used.
    static func failed(destination: String, error: DownloadError, configuration: DownloadConfiguration) -> DownloadTask {
        let task = DownloadTask(
            origin: .url("", headers: []), destination: destination, expectedSHA256: nil, configuration: configuration)
        task.setState(.failed(error))
        return task
    }

    /// The URL the download started from: the one given, or the current request's of a resume
    /// blob (empty for a blob that could not be read).
    public var url: String {
        switch self.origin {
        case .url(let url, _): url
        case .checkpoint(let checkpoint): checkpoint.currentURL
        }
    }

    /// True when the destination already existed without a partial file or blob, so nothing was downloaded.
    public var foundComplete: Bool {
        self.shared.withLock { $0.foundComplete }
    }

    /// The current state.
    public var state: DownloadState {
        self.shared.withLock { $0.state }
    }

    /// Waits until the download stops and returns its final state.
    public func result() async -> DownloadState {
        guard let runner = self.shared.withLock({ $0.runner }) else { return self.state }
        return await runner.value
    }

    /// Stops the download and returns the resume blob written for it (what
    /// `cancelByProducingResumeData` hands back on Apple systems); nil when nothing was downloaded.
    public func pause() async -> Data? {
        let runner = self.shared.withLock { shared -> Task<DownloadState, Never>? in
            shared.intent = .pause
            return shared.runner
        }
        runner?.cancel()
        _ = await runner?.value
        return self.files.contents(of: self.resumeDataPath)
    }

    /// Stops the download; with `removeFile` the partial file and blob are deleted too.
    public func cancel(removeFile: Bool) async {
        let runner = self.shared.withLock { shared -> Task<DownloadState, Never>? in
            shared.intent = .cancel(removeFile: removeFile)
            return shared.runner
        }
        runner?.cancel()
        _ = await runner?.value
    }

    /// Starts the download in the background once `slots` grants a place.
    func start(clients: HTTPClientPool, slots: AsyncSemaphore) {
        self.shared.withLock { shared in
            shared.runner = Task {
                let granted = await slots.acquire()
                guard granted else { return self.stop(at: nil) }
                let state = await self.run(clients: clients)
                await slots.release()
                return state
            }
        }
    }

    // MARK: the run loop

    private func setState(_ state: DownloadState) {
        self.shared.withLock { $0.state = state }
        self.continuation.yield(.state(state))
        switch state {
        case .queued, .running: break
        default: self.continuation.finish()
        }
    }

    private func run(clients: HTTPClientPool) async -> DownloadState {
        self.setState(.running)
        for warning in self.warnings { self.continuation.yield(.warning(warning)) }
        var checkpoint: DownloadCheckpoint
        switch self.prepare() {
        case .success(let value?):
            checkpoint = value
            // The caller's checksum wins; else the one the download was started with.
            if let expected = self.expectedSHA256 { checkpoint.expectedSHA256 = expected }
        case .success(nil):
            self.shared.withLock { $0.foundComplete = true }
            if let expected = self.expectedSHA256 {
                // The user's file is left as it is either way; only the verdict differs.
                do {
                    let file = try PartialFile(path: self.destination, access: .readOnly, calls: self.files.calls)
                    let actual = try Self.sha256(of: file, length: try file.size())
                    if actual != expected { return self.stopped(failing: .checksumMismatch(expected: expected, actual: actual)) }
                } catch {
                    return self.stopped(failing: error)
                }
            }
            self.setState(.completed)
            return .completed
        case .failure(let error):
            return self.stopped(failing: error)
        }
        let part: PartialFile
        do {
            part = try PartialFile(path: self.partialPath, calls: self.files.calls)
            let size = try part.size()
            // Finished ranges the partial file does not hold (it was cut, or is another file) are fetched again.
            checkpoint.finishedRanges = checkpoint.finishedRanges.filter { $0.upperBound <= size }
            if size < checkpoint.bytesReceived {
                // The blob promises bytes the file does not have; nothing before them can be trusted either.
                var fresh = checkpoint
                fresh.bytesReceived = 0
                fresh.finishedRanges = []
                return await self.loop(clients: clients, part: part, checkpoint: fresh)
            }
        } catch {
            return self.stopped(failing: error)
        }
        return await self.loop(clients: clients, part: part, checkpoint: checkpoint)
    }

    /// The checkpoint to start from; nil when the destination is already complete.
    private func prepare() -> Result<DownloadCheckpoint?, DownloadError> {
        switch self.origin {
        case .checkpoint(let checkpoint):
            return .success(checkpoint)
        case .url(let url, let headers):
            guard TrustPolicy.origin(of: url) != nil else { return .failure(.invalidURL(url)) }
            if self.files.exists(self.destination), !self.files.exists(self.partialPath) {
                // Completed earlier; a blob left beside it means the process died between the
                // rename and the blob's removal.
                self.files.remove(self.resumeDataPath)
                return .success(nil)
            }
            let fresh = DownloadCheckpoint(originalURL: url, currentURL: url, extraHeaders: headers)
            if let blob = self.files.contents(of: self.resumeDataPath) {
                var checkpoint: DownloadCheckpoint
                do {
                    checkpoint = try ResumeCheckpoint.decode(blob).checkpoint
                } catch {
                    return .failure(error)
                }
                guard Self.sameURL(checkpoint.originalURL, url) else {
                    // Another download's leftovers: never continue a file the user did not ask for.
                    self.continuation.yield(.warning(
                        "\(self.resumeDataPath) is for \(checkpoint.originalURL), not \(url); starting over"))
                    return .success(fresh)
                }
                checkpoint.extraHeaders = headers
                return .success(checkpoint)
            }
            if let size = self.files.size(of: self.partialPath), size > 0 {
                // A partial file without a blob: nothing proves it is a prefix of the server's file,
                // so the first response is compared with its last bytes before anything is appended.
                var unproven = fresh
                unproven.bytesReceived = size
                return .success(unproven)
            }
            return .success(fresh)
        }
    }

    private static func sameURL(_ first: String, _ second: String) -> Bool {
        first == second || URL(string: first)?.absoluteString == URL(string: second)?.absoluteString
    }

    private func loop(clients: HTTPClientPool, part: PartialFile, checkpoint: DownloadCheckpoint) async -> DownloadState {
        // A blob already on disk may claim more than this run starts from (a partial file shorter
        // than it claims, a blob for another URL): the machine must replace it before cutting.
        let onDisk = self.files.contents(of: self.resumeDataPath)
            .flatMap { try? ResumeCheckpoint.decode($0).checkpoint.bytesReceived } ?? 0
        var machine = DownloadStateMachine(checkpoint: checkpoint, configuration: self.configuration.machine, claimedOnDisk: onDisk)
        var meter = ProgressMeter()
        var attempt = 0
        let writer = CheckpointWriter { [partialPath, resumeDataPath, files] checkpoint throws(DownloadError) in
            try Self.writeCheckpoint(checkpoint, part: part, partialPath: partialPath, resumeDataPath: resumeDataPath, files: files)
        }
        var action = machine.start()
        while true {
            // Every step but sending writes or relies on the blob: no older checkpoint may still be
            // in flight then. A failed background write stops the download (the blob before it
            // is still valid), unless it is stopping with an error of its own already.
            switch action {
            case .sendRequest, .fail:
                _ = await writer.drain()
            default:
                if let error = await writer.drain() {
                    action = machine.diskFailed(Self.message(error))
                    if case .none = action { return self.stopped(failing: error) }
                }
            }
            switch action {
            case .sendRequest(let plan):
                action = await self.send(plan, clients: clients, machine: &machine, part: part, meter: &meter, writer: writer)
            case .retry(let delay, let checkpoint):
                attempt += 1
                _ = self.saveCheckpoint(checkpoint, part: part)
                self.continuation.yield(.retrying(attempt: attempt, delay: delay, reason: machine.lastRetryReason ?? .stalled))
                do {
                    try await Task.sleep(for: delay)
                    action = machine.retryTimerFired()
                } catch {
                    action = machine.pause()
                }
            case .finish(let length, let checkpoint):
                let error = self.complete(length: length, checkpoint: checkpoint, part: part)
                action = machine.finished(error)
                if error == nil {
                    meter.finish(bytes: length, total: length, continuation: self.continuation)
                    self.setState(.completed)
                    return .completed
                }
            case .fail(let error, let checkpoint):
                return self.stopped(failing: error, checkpoint: checkpoint, part: part)
            case .pause(let checkpoint):
                return self.stop(at: (checkpoint, part))
            case .receiveBody, .checkpoint, .none:
                // Only produced inside `send`; reaching here would be a machine bug, so stop safely.
                return self.stopped(failing: .connection("internal: unexpected action \(action)"))
            }
        }
    }

    private func send(
        _ plan: DownloadStateMachine.RequestPlan, clients: HTTPClientPool,
        machine: inout DownloadStateMachine, part: PartialFile, meter: inout ProgressMeter, writer: CheckpointWriter
    ) async -> DownloadStateMachine.Action {
        if Task.isCancelled { return machine.pause() }
        let request: HTTPClient.Request
        do {
            var headers = HTTPHeaders()
            for field in plan.headers { headers.add(name: field.name, value: field.value) }
            request = try HTTPClient.Request(url: plan.url, method: .GET, headers: headers)
        } catch {
            return machine.transportFailed(Self.transportError(error))
        }
        // The client for this request's proxy route (ProxySettings decides per URL).
        let client = clients.client(for: plan.url)
        let settings = self.receiverSettings
        let events = ResponseEvent.Queue()
        let receiver: any BodyReceiver
        if let direct = self.directReceiver(for: plan, machine: machine, part: part, settings: settings, events: events) {
            receiver = direct
        } else {
            let viaClient = ResponseReceiver(eventLoop: client.eventLoopGroup.next(), part: part, settings: settings, events: events)
            // The connection and the receiver share one event loop, so no body buffer changes
            // thread before it is gathered into a batch.
            viaClient.attach(client.execute(request: request, delegate: viaClient, eventLoop: .delegateAndChannel(on: viaClient.eventLoop)))
            receiver = viaClient
        }
        return await withTaskCancellationHandler {
            await self.follow(
                events, receiver: receiver, client: client, settings: settings, machine: &machine, part: part, meter: &meter, writer: writer)
        } onCancel: {
            receiver.stop()
        }
    }

    /// Feeds one response's events to the machine. Once the machine has decided (a redirect, a
    /// retry, a failed write), the response is stopped but still followed to its last event, which
    /// comes after every write for it finished: no write of this response can land after the
    /// next step (a truncation, a checkpoint, the rename) has begun.
    private func follow(
        _ events: ResponseEvent.Queue, receiver: any BodyReceiver, client: HTTPClient, settings: ResponseReceiver.Settings,
        machine: inout DownloadStateMachine, part: PartialFile, meter: inout ProgressMeter, writer: CheckpointWriter
    ) async -> DownloadStateMachine.Action {
        let clock = ContinuousClock()
        let origin = clock.now
        var decided: DownloadStateMachine.Action?
        var position: Int64 = 0
        func decide(_ action: DownloadStateMachine.Action) {
            decided = action
            receiver.stop()
        }
        var finished = false
        while !finished {
            let (_, event) = await events.next()
            finished = event.isLast
            switch event {
            case .head(let status, let fields):
                guard decided == nil else { continue }
                let action = machine.receivedResponse(status: status, headers: fields, now: .zero)
                guard case .receiveBody(let offset, let overlap, let restart) = action else {
                    decided = action
                    receiver.discard()
                    continue
                }
                // An older checkpoint landing after the truncation would describe bytes that are gone.
                if let error = await writer.drain() {
                    decide(machine.diskFailed(Self.message(error)))
                    continue
                }
                let acceptsRanges = status == 206 || fields.value(of: "accept-ranges")?.lowercased().contains("bytes") == true
                // Segments start from a response of AsyncHTTPClient's: the direct path is never
                // taken for a download that may use them (see directReceiver).
                let primary = receiver as? ResponseReceiver
                let segments = primary != nil && (self.configuration.segmentConnections > 1 || !machine.checkpoint.finishedRanges.isEmpty) && overlap == 0
                    ? machine.beginSegments(acceptsRanges: acceptsRanges, now: origin.duration(to: clock.now)) : nil
                do {
                    if let restart {
                        if try part.size() > 0 { self.continuation.yield(.restarted) }
                        // First a blob that claims no more than will remain, then the cut: a crash in
                        // between leaves a blob that still tells the truth.
                        try self.writeCheckpoint(restart, part: part)
                        try part.truncate(to: offset)
                    } else if segments == nil {
                        if !machine.checkpoint.finishedRanges.isEmpty {
                            // One stream from the prefix: the cut below removes the other ranges,
                            // so first a blob that no longer counts them.
                            try self.writeCheckpoint(machine.dropFinishedRanges(), part: part)
                        }
                        try part.truncate(to: offset)
                    }
                    // Segments keep the bytes after the prefix: the finished ranges are among them.
                } catch {
                    decide(machine.diskFailed(Self.message(error)))
                    continue
                }
                if let total = segments, let primary {
                    let transfer = SegmentedTransfer(
                        total: total, client: client, part: part, settings: settings,
                        connections: self.configuration.segmentConnections,
                        minimumSplit: max(self.configuration.minimumSegmentBytes, 1),
                        maximumFailures: self.configuration.maximumRetries, progress: self.continuation)
                    return await transfer.run(primary: primary, events: events, machine: &machine, meter: &meter, writer: writer)
                }
                position = offset
                meter.begin(at: offset)
                // The body starts `overlap` bytes before `offset`: those must repeat the file's own bytes.
                receiver.accept(at: offset - overlap, verifying: overlap)
            case .written(let count):
                guard decided == nil else { continue }
                position += count
                let next = machine.wroteBytes(Int(count), now: origin.duration(to: clock.now))
                meter.update(bytes: position, total: machine.checkpoint.totalLength, continuation: self.continuation)
                switch next {
                case .none:
                    break
                case .checkpoint(let checkpoint):
                    if let error = writer.submit(checkpoint) { decide(machine.diskFailed(Self.message(error))) }
                default:
                    decide(next)
                }
            case .overlapMismatched:
                if decided == nil { decided = machine.overlapMismatched() }
            case .ended:
                if decided == nil { decided = Task.isCancelled ? machine.pause() : machine.bodyEnded() }
            case .failed(let error):
                guard decided == nil else { continue }
                if Task.isCancelled {
                    decided = machine.pause()
                } else if case .disk = error {
                    decided = machine.diskFailed(Self.message(error))
                } else if error.isFinal {
                    decided = machine.failedForGood(error)
                } else {
                    decided = machine.transportFailed(error)
                }
            }
        }
        if let decided { return decided }
        return Task.isCancelled ? machine.pause() : machine.transportFailed(.connection("the response ended without a result"))
    }

    /// A receiver that reads the response from a socket of its own and splices the body into
    /// the partial file (``DirectReceiver``), already sending; nil when the request must go
    /// through AsyncHTTPClient: not Linux, not plain http (``DirectRoute``), a proxy on the route,
    /// several connections or finished ranges to continue (segments need AsyncHTTPClient's
    /// receivers), or a header NIO will not send (AsyncHTTPClient then reports it).
    private func directReceiver(
        for plan: DownloadStateMachine.RequestPlan, machine: DownloadStateMachine, part: PartialFile,
        settings shared: ResponseReceiver.Settings, events: ResponseEvent.Queue
    ) -> (any BodyReceiver)? {
        #if os(Linux)
        guard self.configuration.usesDirectPath, self.configuration.segmentConnections == 1,
              machine.checkpoint.finishedRanges.isEmpty, self.configuration.proxy.server(for: plan.url) == nil,
              let route = DirectRoute(url: plan.url),
              (try? HTTP1Framing())?.request(route, headers: plan.headers) != nil
        else { return nil }
        let settings = DirectReceiver.Settings(
            connectTimeout: self.configuration.connectTimeout, responseTimeout: self.configuration.responseTimeout,
            stallTimeout: self.configuration.stallTimeout, batchBytes: shared.batchBytes, rateLimit: shared.rateLimit)
        guard let receiver = DirectReceiver(part: part, settings: settings, events: events) else { return nil }
        receiver.start(route: route, headers: plan.headers)
        return receiver
        #else
        return nil
        #endif
    }

    /// The settings of one attempt's receivers. With several connections the memory bound holds
    /// whatever their number (at most 16 × 512 KiB gathered, one batch in flight each); the
    /// rate limit is one for all of them.
    private var receiverSettings: ResponseReceiver.Settings {
        let connections = self.configuration.segmentConnections
        var settings = ResponseReceiver.Settings()
        settings.batchBytes = max(min(self.configuration.writeBatchBytes, (8 << 20) / connections), 1)
        if connections > 1 { settings.batchesInFlight = 1 }
        settings.rateLimit = self.configuration.maximumBytesPerSecond.map(SharedRatePacer.init(bytesPerSecond:))
        settings.responseTimeout = self.configuration.responseTimeout.timeAmount
        return settings
    }

    /// Verifies the partial file, then moves it into place; nil when all went well.
    private func complete(length: Int64, checkpoint: DownloadCheckpoint, part: PartialFile) -> DownloadError? {
        do {
            let size = try part.size()
            guard size >= length else { return .lengthMismatch(expected: length, received: size) }
            if size > length { try part.truncate(to: length) }
            if let expected = checkpoint.expectedSHA256 {
                let actual = try Self.sha256(of: part, length: length)
                if actual != expected {
                    // Complete but wrong bytes: keeping them would only make the next run finish
                    // with the same wrong file, so start clean next time.
                    self.files.remove(self.resumeDataPath)
                    self.files.remove(self.partialPath)
                    return .checksumMismatch(expected: expected, actual: actual)
                }
            }
            try part.sync()
            try part.close()
            // One folder sync for both changes: a crash leaves the partial file with its blob, or
            // the finished file alone, never the file beside a blob that no longer fits it.
            try self.files.rename(self.partialPath, to: self.destination)
            self.files.remove(self.resumeDataPath)
            try self.files.syncFolder(of: self.destination)
            return nil
        } catch {
            return error
        }
    }

    static func sha256(of part: PartialFile, length: Int64) throws(DownloadError) -> String {
        var hasher = SHA256()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(chunk), length - offset))
            let count = try part.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
            guard count > 0 else { throw .disk("read \(part.path): file ended at \(offset) of \(length) bytes") }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// fsync the partial file first, so the blob never counts bytes that are not on disk.
    private func writeCheckpoint(_ checkpoint: DownloadCheckpoint, part: PartialFile) throws(DownloadError) {
        try Self.writeCheckpoint(checkpoint, part: part, partialPath: self.partialPath, resumeDataPath: self.resumeDataPath, files: self.files)
    }

    private static func writeCheckpoint(
        _ checkpoint: DownloadCheckpoint, part: PartialFile, partialPath: String, resumeDataPath: String, files: FileSystem
    ) throws(DownloadError) {
        try part.sync()
        let blob = try ResumeCheckpoint.encode(checkpoint, partialPath: partialPath)
        try files.writeAtomically(blob, to: resumeDataPath)
    }

    /// Best effort: the error, when the checkpoint could not be written.
    private func saveCheckpoint(_ checkpoint: DownloadCheckpoint, part: PartialFile) -> DownloadError? {
        do {
            try self.writeCheckpoint(checkpoint, part: part)
            return nil
        } catch {
            return error
        }
    }

    private func stopped(failing error: DownloadError) -> DownloadState {
        self.setState(.failed(error))
        return .failed(error)
    }

    private func stopped(failing error: DownloadError, checkpoint: DownloadCheckpoint, part: PartialFile) -> DownloadState {
        switch error {
        case .disk:
            // The blob on disk still describes flushed bytes; writing another could fail the same way.
            break
        case .checksumMismatch:
            // The files are already removed.
            break
        default:
            if checkpoint.bytesReceived == 0, (try? part.size()) == 0 {
                // Nothing was received: leave no empty files behind.
                self.files.remove(self.resumeDataPath)
                self.files.remove(self.partialPath)
            } else {
                _ = self.saveCheckpoint(checkpoint, part: part)
            }
        }
        return self.stopped(failing: error)
    }

    /// Pause or cancel, as the caller asked.
    private func stop(at point: (DownloadCheckpoint, PartialFile)?) -> DownloadState {
        let intent = self.shared.withLock { $0.intent }
        var failure: DownloadError?
        if let (checkpoint, part) = point {
            if case .cancel(removeFile: true) = intent {
                // Removed below.
            } else {
                failure = self.saveCheckpoint(checkpoint, part: part)
            }
        }
        if case .cancel(let removeFile) = intent {
            if removeFile {
                self.files.remove(self.resumeDataPath)
                self.files.remove(self.partialPath)
            }
            self.setState(.cancelled)
            return .cancelled
        }
        if let failure { return self.stopped(failing: failure) }
        self.setState(.paused)
        return .paused
    }

    static func transportError(_ error: any Error) -> DownloadError {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return .stalled
            case .deadlineExceeded, .connectTimeout: return .timedOut
            case .proxyAuthenticationRequired:
                return .invalidProxy("the proxy asks for credentials (407): give them in its URL, http://USER:PASSWORD@HOST:PORT")
            case .invalidProxyResponse:
                return .connection("the proxy refused to open a tunnel to the server")
            default: break
            }
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error {
            // BoringSSL's text names a source file of the build; the reason alone is what helps.
            let text = String(describing: reason)
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return .tls("the server's certificate is not trusted (for a private certificate authority, trust it with --cacert FILE)")
            }
            let short = text.range(of: "OPENSSL_internal:").map { text[$0.upperBound...].prefix { $0 != " " } }
            return .tls("handshake failed: \(short.map(String.init) ?? text)")
        }
        return .connection(String(describing: error))
    }

    static func message(_ error: DownloadError) -> String {
        if case .disk(let message) = error { return message }
        return error.description
    }
}

extension Duration {
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = self.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
