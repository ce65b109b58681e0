import AsyncHTTPClient
import Foundation
import ResumeSystemCalls
import ResumeDataCodec
import NIOSSL
import ResumeSupport

/// Runs downloads through its HTTP clients (one per proxy in use), at most
/// ``DownloadConfiguration/maximumConcurrentDownloads`` at a time.
///
/// ```swift
/// let downloader = Downloader()
/// let task = downloader.download(from: "https://example.com/big.iso", to: "big.iso")
/// for await event in task.events { print(event) }
/// print(await task.result())                        // .completed, or .failed(why)
/// _ = try downloader.recover(in: "/var/downloads")  // after a crash: continue every *.resume
/// try await downloader.shutdown()
/// ```
///
/// Each download writes `FILE.part` and checkpoints Apple-format resume data in `FILE.resume`
/// (fsync of the partial file first, then an atomic replace), so after `kill -9` at any moment
/// the same call continues byte-exactly. `FILE` itself only ever appears complete and verified.
///
/// ``withDownloader(configuration:isolation:_:)`` shuts it down when its body ends. A downloader
/// made with ``init(configuration:)`` is shut down with ``shutdown()``, which waits for its
/// connections to close; one released without it shuts itself down in the background.
public final class Downloader: Sendable {
    /// The settings every download of this downloader uses.
    public let configuration: DownloadConfiguration
    let clients: HTTPClientPool
    private let slots: AsyncSemaphore
    /// The file-system calls of every download (the system's; a fake in the fault-injection tests).
    private let files: FileSystem

    /// Creates a downloader with its own HTTP clients.
    public convenience init(configuration: DownloadConfiguration = .init()) {
        self.init(configuration: configuration, calls: .system)
    }

    init(configuration: DownloadConfiguration, calls: FileSystemCalls) {
        self.configuration = configuration
        self.files = FileSystem(calls: calls)
        // Redirects are decided by the state machine (it must carry Range/If-Range and count them);
        // the read timeout is the stall detector, since a deadline only covers the response head.
        let tls = TLSClientSettings.configuration(
            certificateAuthorityFile: configuration.certificateAuthorityFile, acceptsAnyCertificate: configuration.acceptsAnyCertificate)
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: configuration.connectTimeout.timeAmount, read: configuration.stallTimeout.timeAmount),
            decompression: .disabled
        )
        // HTTP/1.1 on every path, as the direct path speaks it: one framing, one decoder and one
        // set of head bounds (``ResponseHeadGuard``); a single large body gains nothing from h2.
        clientConfiguration.httpVersion = .http1Only
        let limits = configuration.responseHeadLimits
        clientConfiguration.http1_1ConnectionDebugInitializer = { ResponseHeadGuard.install(on: $0, limits: limits) }
        // One connection per attempt: the retry policy counts attempts, and the client's own
        // retries of a failed connection (6 through a proxy refusing CONNECT) would not be counted.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        self.clients = HTTPClientPool(configuration: clientConfiguration, proxy: configuration.proxy)
        self.slots = AsyncSemaphore(limit: configuration.maximumConcurrentDownloads)
    }

    /// Downloads `url` to `destination`, continuing from `destination.resume` and
    /// `destination.part` when an earlier run left them. When only the partial file is there,
    /// nothing proves its bytes are the server's: the first request asks again for its last
    /// 64 KiB, or all of it when shorter (`Range` without `If-Range`), and compares them before
    /// appending; when they differ, or the server sends the whole file, the download starts over
    /// from zero. When `destination` exists without a partial file, the task completes at once
    /// without touching the network (checking `expectedSHA256` when given, and removing a blob
    /// left beside it).
    ///
    /// `url` is checked already (`HTTPURL`), and every request of the download, across
    /// redirects, carries that checked value.
    public func download(
        from url: HTTPURL, to destination: String, expectedSHA256: String? = nil, headers: [HTTPHeaderField] = []
    ) -> DownloadTask {
        self.start(.url(url, headers: headers), to: destination, expectedSHA256: expectedSHA256)
    }

    /// ``download(from:to:expectedSHA256:headers:)-(HTTPURL,_,_,_)`` for a URL given as text,
    /// checked here by `HTTPURL`'s rule. Text the rule refuses gives a task that fails with
    /// ``TransferError/invalidURL(_:)`` when it runs (an invalid `expectedSHA256` and a
    /// destination that cannot be written to are reported first).
    public func download(
        from url: String, to destination: String, expectedSHA256: String? = nil, headers: [HTTPHeaderField] = []
    ) -> DownloadTask {
        let origin: DownloadTask.Origin = HTTPURL(url).map { .url($0, headers: headers) } ?? .refusedURL(url)
        return self.start(origin, to: destination, expectedSHA256: expectedSHA256)
    }

    private func start(_ origin: DownloadTask.Origin, to destination: String, expectedSHA256: String?) -> DownloadTask {
        let task = DownloadTask(
            origin: origin, destination: destination,
            expectedSHA256: expectedSHA256, configuration: self.configuration, calls: self.files.calls)
        task.start(clients: self.clients, slots: self.slots)
        return task
    }

    /// Continues from a resume blob (ours, or Apple's) and its partial file.
    ///
    /// The partial file is `partialFile` when given. Otherwise it is the file the blob names
    /// (`TempFileName`, else `LocalPath`) **directly inside `folder`**: a blob is not trusted to
    /// name a file anywhere else, so a path outside is ignored with a warning event, and without a
    /// usable partial file the download starts from zero. Checkpoints go to `destination.resume`.
    ///
    /// The partial file is an input, left byte for byte as it was. Before any request an empty
    /// `destination.part` is made, which proves the destination's folder writable before
    /// anything is fetched; the bytes the blob counts are copied into it (by the kernel, a
    /// reflink where the file system allows) once the server's first response continues after
    /// them, and never when it answers with another file or the whole file again. A run stopped
    /// before that leaves neither `destination.part` nor a checkpoint. A
    /// `destination.part` left by an earlier run is never overwritten: it is continued with its
    /// own blob, `destination.resume`. Only with `consumingPartialFile` is the given file appended
    /// to and renamed to `destination` (it must then be writable, on the destination's file system).
    ///
    /// `headers` are sent with the blob's own, replacing any of the same name (a fresh
    /// `Authorization`, a `User-Agent`); like those, credentials go only to the blob's original
    /// origin (the trust policy every request follows).
    ///
    /// A file at `destination` that this download did not make is left as it is and nothing is
    /// fetched: the task fails with ``TransferError/destinationExists(path:size:)``, unless
    /// ``DownloadConfiguration/replacesExistingFiles`` is on. One finished by an earlier run (its
    /// checkpoint still beside it) completes at once. The partial file and `inputs` (other files
    /// the caller read to make `resumeData`, such as the blob's own file) are never replaced.
    public func resume(
        resumeData: Data, partialFile: String? = nil, folder: String = ".", to destination: String,
        expectedSHA256: String? = nil, consumingPartialFile: Bool = false, headers: [HTTPHeaderField] = [],
        inputs: [String] = []
    ) throws(TransferError) -> DownloadTask {
        try self.resume(
            resumeData: resumeData, partialFile: partialFile, folder: folder, to: destination, expectedSHA256: expectedSHA256,
            consumingPartialFile: consumingPartialFile, headers: headers, inputs: inputs.map { ($0, "a file") })
    }

    private func resume(
        resumeData: Data, partialFile: String?, folder: String, to destination: String,
        expectedSHA256: String?, consumingPartialFile: Bool, headers: [HTTPHeaderField], inputs given: [(path: String, what: String)]
    ) throws(TransferError) -> DownloadTask {
        var decoded = try ResumeCheckpoint.decode(resumeData)
        let replaced = Set(headers.map { $0.name.lowercased() })
        decoded.checkpoint.extraHeaders = decoded.checkpoint.extraHeaders.filter { !replaced.contains($0.name.lowercased()) } + headers
        var warnings: [String] = []
        var partial: String
        if let partialFile {
            partial = partialFile
        } else {
            let found = try self.partialFile(for: decoded, in: folder)
            warnings = found.warnings
            if let path = found.path {
                partial = path
            } else {
                if decoded.checkpoint.bytesReceived > 0 || decoded.offsetFromPartialFile {
                    warnings.append("no partial file named by the blob is in \(ResumeCheckpoint.absolute(folder)); starting from zero")
                }
                decoded.checkpoint.bytesReceived = 0
                partial = destination + ".part"
            }
        }
        if decoded.offsetFromPartialFile {
            // The trusted file's size is the offset; with no strong ETag the task proves the last
            // 64 KiB again before appending, as for any unproven bytes.
            decoded.checkpoint.bytesReceived = self.files.size(of: partial) ?? 0
        }
        let inputs = given + [(partial, "the partial file")]
        let own = destination + ".part"
        var pending: PendingCopy?
        if !consumingPartialFile, BytePath(partial).absolute != BytePath(own).absolute,
           let earlier = self.earlierRun(of: decoded.checkpoint, to: destination) {
            // This same resume was stopped (kill -9, power loss) after its copy: its own partial
            // file and checkpoint continue it, as a rerun of `download` continues, and the input's
            // bytes are not copied again.
            decoded.checkpoint = earlier
            partial = own
        } else if !consumingPartialFile, BytePath(partial).absolute != BytePath(own).absolute {
            // Nothing is copied beside a destination the task will leave or refuse: it says why
            // when it runs, before any request.
            let verdict = OutputFileRule.verdict(self.files.outputFacts(
                destination: destination, partialPath: own, url: decoded.checkpoint.originalURL.checked, purpose: .continueBlob,
                inputs: inputs, replacesExisting: self.configuration.replacesExistingFiles, expectedSHA256: nil))
            if verdict == .fetch {
                let count = decoded.offsetFromPartialFile ? Int64.max : decoded.checkpoint.bytesReceived
                // A copy that an earlier run of this resume left without its checkpoint holds
                // nothing but the input's bytes: it is made again. Any other `.part` is left.
                if self.files.exists(own), !self.files.exists(destination + ".resume"),
                   self.files.isPrefixCopy(own, of: partial, count: count) {
                    self.files.remove(own)
                }
                let available = try self.files.startCopy(of: partial, to: own)
                decoded.checkpoint.bytesReceived = max(0, min(count, available))
                // Only the prefix is copied: ranges beyond it are fetched again.
                decoded.checkpoint.finishedRanges = []
                if decoded.checkpoint.bytesReceived > 0 {
                    pending = PendingCopy(source: partial, count: decoded.checkpoint.bytesReceived)
                }
            }
            partial = own
        }
        let task = DownloadTask(
            origin: .checkpoint(decoded.checkpoint), destination: destination, partialPath: partial,
            expectedSHA256: expectedSHA256, configuration: self.configuration, warnings: warnings,
            inputs: inputs, pendingCopy: pending, calls: self.files.calls)
        task.start(clients: self.clients, slots: self.slots)
        return task
    }

    /// The checkpoint an earlier run of the same download left beside `destination`
    /// (`destination.resume`, with `destination.part`), carrying the headers given now; nil when
    /// there is none, or it is another download's (another URL): a `.part` is then never
    /// overwritten, and the copy says so.
    private func earlierRun(of checkpoint: DownloadCheckpoint, to destination: String) -> DownloadCheckpoint? {
        guard self.files.exists(destination + ".part"), let blob = self.files.contents(of: destination + ".resume"),
              var earlier = try? ResumeCheckpoint.decode(blob).checkpoint,
              let url = checkpoint.originalURL.checked, DownloadTask.sameURL(earlier.originalURL, url) else { return nil }
        earlier.extraHeaders = checkpoint.extraHeaders
        return earlier
    }

    /// Continues from the resume blob at `blobPath`. Without `destination`, the file goes to the
    /// blob's path minus `.resume`, or else to the URL's last path segment in the current directory.
    /// The partial file is looked for in `tmpDirectory`, by default the blob's folder.
    public func resume(
        blobAt blobPath: String, partialFile: String? = nil, tmpDirectory: String? = nil, to destination: String? = nil,
        expectedSHA256: String? = nil, consumingPartialFile: Bool = false, headers: [HTTPHeaderField] = []
    ) throws(TransferError) -> DownloadTask {
        guard let blob = self.files.contents(of: blobPath) else {
            throw .disk("cannot read \(blobPath)")
        }
        let target: String
        if let destination {
            target = destination
        } else if blobPath.hasSuffix(".resume"), blobPath.count > ".resume".count {
            target = String(blobPath.dropLast(".resume".count))
        } else {
            target = DownloadFileName.choose(url: try ResumeCheckpoint.decode(blob).checkpoint.currentURL)
        }
        return try self.resume(
            resumeData: blob, partialFile: partialFile,
            folder: PartialFileResolution.lookupFolder(given: tmpDirectory, besideBlobAt: blobPath),
            to: target, expectedSHA256: expectedSHA256, consumingPartialFile: consumingPartialFile, headers: headers,
            inputs: [(blobPath, "the resume blob")])
    }

    /// The name to save `url` under: from a HEAD response's `Content-Disposition` when the server
    /// sends one, else the URL's last path segment (see ``DownloadFileName``).
    public func suggestedFileName(for url: HTTPURL) async -> String {
        var request = HTTPClientRequest(url: url.string)
        request.method = .HEAD
        let response = try? await self.clients.client(for: url).execute(request, timeout: self.configuration.responseTimeout.timeAmount)
        let disposition = response?.headers.first(name: "content-disposition")
        return DownloadFileName.choose(url: url, contentDisposition: disposition)
    }

    /// ``suggestedFileName(for:)-(HTTPURL)`` for a URL given as text. Text that `HTTPURL`'s rule
    /// refuses is asked nothing: its name comes from the text alone (``DownloadFileName``).
    public func suggestedFileName(for url: String) async -> String {
        guard let checked = HTTPURL(url) else { return DownloadFileName.choose(url: url) }
        return await self.suggestedFileName(for: checked)
    }

    /// Removes the temporary files that runs killed between a write and its rename left in
    /// `directory` (`.NAME.tmp-PID-RANDOM` of this tool, regular files of this user whose process
    /// has ended: checkpoints, and the outputs of `convert`, `repair` and the like); `recover`
    /// does it first.
    /// - Returns: the names removed.
    public func removeStaleTemporaryFiles(in directory: String) -> [String] {
        AtomicFile.removeStaleTemporaries(in: directory, calls: self.files.calls)
    }

    /// Finds every `*.resume` blob in `directory` that an interrupted process left and continues
    /// them all (the call to make after a crash). Each destination is the blob's path without
    /// `.resume`. Stale temporary files go first (``removeStaleTemporaryFiles(in:)``).
    public func recover(in directory: String) throws(TransferError) -> [DownloadTask] {
        // The CLI calls removeStaleTemporaryFiles itself first, to name each file it removed.
        _ = self.removeStaleTemporaryFiles(in: directory)
        let names = try self.files.list(directory)
        var tasks: [DownloadTask] = []
        for name in names.sorted() where name.hasSuffix(".resume") && name.count > ".resume".count {
            let blobPath = BytePath(directory).appending(name).text
            guard let blob = self.files.contents(of: blobPath) else { continue }
            let destination = String(blobPath.dropLast(".resume".count))
            let decoded: ResumeCheckpoint.Decoded
            do {
                decoded = try ResumeCheckpoint.decode(blob)
            } catch {
                // One unreadable blob must not stop the others; report it as a failed task.
                tasks.append(DownloadTask.failed(destination: destination, error: error, configuration: self.configuration))
                continue
            }
            let found: (path: String?, warnings: [String])
            do {
                found = try self.partialFile(for: decoded, in: directory)
            } catch {
                tasks.append(DownloadTask.failed(destination: destination, error: error, configuration: self.configuration))
                continue
            }
            var checkpoint = decoded.checkpoint
            if decoded.offsetFromPartialFile {
                checkpoint.bytesReceived = found.path.flatMap(self.files.size(of:)) ?? 0
            }
            let task = DownloadTask(
                origin: .checkpoint(checkpoint), destination: destination,
                partialPath: found.path ?? destination + ".part",
                expectedSHA256: nil, configuration: self.configuration, warnings: found.warnings,
                calls: self.files.calls)
            task.start(clients: self.clients, slots: self.slots)
            tasks.append(task)
        }
        return tasks
    }

    /// Shuts the HTTP clients down; running downloads fail.
    public func shutdown() async throws {
        try await self.clients.shutdown()
    }

    /// Runs `body` with a new downloader and shuts it down when `body` returns or throws, in the
    /// manner of swift-nio's and AsyncHTTPClient's scoped `with…` calls.
    ///
    /// ```swift
    /// let state = try await Downloader.withDownloader { downloader in
    ///     await downloader.download(from: "https://example.com/big.iso", to: "big.iso").result()
    /// }
    /// ```
    public static func withDownloader<Result>(
        configuration: DownloadConfiguration = .init(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Downloader) async throws -> sending Result
    ) async throws -> sending Result {
        let downloader = Downloader(configuration: configuration)
        let result: Result
        do {
            result = try await body(downloader)
        } catch {
            try? await downloader.shutdown()
            throw error
        }
        try await downloader.shutdown()
        return result
    }

    /// The partial file a blob names inside `folder`, by `PartialFileResolution`: the first
    /// candidate that exists, or none. A folder, a link or anything but a regular file there is
    /// an error: the download must neither touch it nor start over beside it. (``PartialFile``
    /// opens the file with `O_NOFOLLOW` and checks again, for a name swapped meanwhile.)
    private func partialFile(for decoded: ResumeCheckpoint.Decoded, in folder: String) throws(TransferError) -> (path: String?, warnings: [String]) {
        let resolution = PartialFileResolution(
            tempFileName: decoded.tempFileName, localPath: decoded.localPath, folder: ResumeCheckpoint.absolute(folder))
        let warnings = resolution.rejected.map { $0 + "; ignored" }
        switch resolution.resolve(self.files.entry(at:)) {
        case .file(let path, _, _): return (path, warnings)
        case .refused(let path, _, let reason): throw .untrustedFile("\(path): \(reason)")
        case .missing: return (nil, warnings)
        }
    }
}
