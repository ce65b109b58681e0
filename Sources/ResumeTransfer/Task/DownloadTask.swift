import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import Synchronization

/// One download: performs what the download state machine decides, writing into `partialPath` and
/// checkpointing into `resumeDataPath`, and moving the verified file to `destination` at the end.
///
/// This file is the handle the caller holds; the work is in the run loop
/// (`DownloadTask+RunLoop.swift`), which starts from `DownloadTask+Preparation.swift` and stops
/// through `DownloadTask+Ending.swift`.
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
        case url(HTTPURL, headers: [HTTPHeaderField])
        /// A string the `HTTPURL` rule refused (a caller of the `String` API): the task fails with
        /// ``TransferError/invalidURL(_:)`` when it runs, after the checks that come before it.
        case refusedURL(String)
        /// A decoded blob.
        case checkpoint(DownloadCheckpoint)
    }

    enum Intent: Sendable {
        case run
        case pause
        /// ``DownloadConfiguration/maximumDuration`` ran out: stop as a pause does, and fail.
        case expire
        case cancel(removeFile: Bool)
    }

    struct Shared: Sendable {
        var state: DownloadState = .queued
        var intent: Intent = .run
        var runner: Task<DownloadState, Never>?
        var existingFile: ExistingFile?
    }

    let origin: Origin
    /// Files this run reads (the resume blob, the partial file given): the destination is never
    /// one of them (``OutputFileRule``).
    let inputs: [(path: String, what: String)]
    let expectedSHA256: String?
    /// What the caller should know before the download starts (blob paths that were ignored).
    let warnings: [String]
    /// The input's bytes this run copies once the server agrees to continue them (``PendingCopy``).
    let pendingCopy: PendingCopy?
    let configuration: DownloadConfiguration
    /// Every file-system call goes through here (a fake in the fault-injection tests).
    let files: FileSystem
    let continuation: AsyncStream<DownloadEvent>.Continuation
    let shared = Mutex(Shared())

    init(
        origin: Origin, destination: String, partialPath: String? = nil,
        expectedSHA256: String?, configuration: DownloadConfiguration, warnings: [String] = [],
        inputs: [(path: String, what: String)] = [], pendingCopy: PendingCopy? = nil, calls: FileSystemCalls = .system
    ) {
        self.origin = origin
        self.pendingCopy = pendingCopy
        self.inputs = inputs
        self.files = FileSystem(calls: calls)
        self.warnings = warnings
        self.destination = destination
        self.partialPath = partialPath ?? destination + ".part"
        self.resumeDataPath = destination + ".resume"
        // Spelled as SHA256Hex spells it; one it refuses is kept as given, for prepare() to report.
        self.expectedSHA256 = expectedSHA256.map { SHA256Hex($0)?.text ?? $0 }
        self.configuration = configuration
        (self.events, self.continuation) = AsyncStream.makeStream(of: DownloadEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// A task that never runs, for a blob that cannot be used.
    static func failed(destination: String, error: TransferError, configuration: DownloadConfiguration) -> DownloadTask {
        let task = DownloadTask(
            origin: .refusedURL(""), destination: destination, expectedSHA256: nil, configuration: configuration)
        task.setState(.failed(error))
        return task
    }

    /// The URL the download started from: the one given, or the current request's of a resume
    /// blob; nil for a string the `HTTPURL` rule refused (the task fails with
    /// ``TransferError/invalidURL(_:)``, which names it) and for a blob that could not be read.
    public var url: HTTPURL? {
        switch self.origin {
        case .url(let url, _): url
        case .refusedURL: nil
        case .checkpoint(let checkpoint): checkpoint.currentURL
        }
    }

    /// Set when the destination already existed without a partial file, so nothing was
    /// downloaded and the file was left as it is: what, if anything, vouches for it.
    public var existingFile: ExistingFile? {
        self.shared.withLock { $0.existingFile }
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

    /// Stops a running download whose time ran out (``DownloadConfiguration/maximumDuration``).
    private func expire() {
        let runner = self.shared.withLock { shared -> Task<DownloadState, Never>? in
            guard case .run = shared.intent else { return nil }
            shared.intent = .expire
            return shared.runner
        }
        runner?.cancel()
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
                guard granted else {
                    self.abandon(self.pendingCopy, part: nil)
                    return self.stop(at: nil)
                }
                let deadline = self.configuration.maximumDuration.map { limit in
                    Task { [weak self] in
                        try? await Task.sleep(for: limit)
                        if !Task.isCancelled { self?.expire() }
                    }
                }
                let state = await self.run(clients: clients)
                deadline?.cancel()
                await slots.release()
                return state
            }
        }
    }

    func setState(_ state: DownloadState) {
        self.shared.withLock { $0.state = state }
        self.continuation.yield(.state(state))
        switch state {
        case .queued, .running: break
        default: self.continuation.finish()
        }
    }
}
