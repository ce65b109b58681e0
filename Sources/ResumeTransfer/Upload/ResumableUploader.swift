import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ResumeDataCodec
import Synchronization

/// What a resumable upload reports as it goes.
package enum UploadEvent: Sendable, Equatable {
    /// A 104 named the resume URL (the checkpoint is written before this is reported).
    case resumable(HTTPURL)
    /// A 104 that cannot be used (another version, no Location, a Location refused): the upload
    /// goes on, but an interruption before another 104 starts it over.
    case notResumable(String)
    /// The server has this many bytes (its answer to the offset request).
    case offset(Int64)
    /// A failed attempt, the `attempt`-th in a row (progress resets the count), tried again
    /// after `delay`: the shape of a download's retry event, so both print the same line.
    case retrying(attempt: Int, delay: Duration, reason: TransferError)
    /// The server forgot the upload (its status): it is created again.
    case restarting(status: Int)
    /// A request head as it goes out (`-v`): the method, the URL, every field sent.
    case request(method: String, url: HTTPURL, headers: [HTTPHeaderField])
    /// A response head as it came in, 1xx ones included (`-v`).
    case response(status: Int, headers: [HTTPHeaderField])
}

/// The client side of the resumable-upload draft for a file: create the upload with the whole
/// body (taking the resume URL from the `104`), and after any interruption ask the server how
/// much it has (`HEAD`) and append the rest (`PATCH`), until the server confirms the whole file.
///
/// Bounds, every one of them from the shared rules: each head against ``ResponseHeadLimits``
/// (a flood of 1xx stops at their count), failed attempts in a row against ``RetryPolicy``
/// (endless 409s or 5xx end as `retriesExhausted`), fresh creations after a 404 against
/// ``UploadConfiguration/maximumRestarts``, credentials to other origins and https → http
/// against ``TrustPolicy``. An offset the server claims beyond the file or beyond what was sent
/// stops the upload: the bytes sent are always the file's own from the server's offset.
package final class ResumableUploader: Sendable {
    let configuration: UploadConfiguration
    private let transport: any UploadTransport

    /// - Throws: ``UploadError/transfer(_:)`` with `.tls` when the TLS settings cannot be used.
    convenience init(configuration: UploadConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws(UploadError) {
        let tls = TLSClientSettings.configuration(
            certificateAuthorityFile: configuration.certificateAuthorityFile, acceptsAnyCertificate: configuration.acceptsAnyCertificate)
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .transfer(.tls("the TLS settings cannot be used: \(error)"))
        }
        self.init(configuration: configuration, transport: NIOUploadTransport(group: group, tls: context, configuration: configuration))
    }

    /// The engine's rounds over another transport: the fuzzing check's scripted answers.
    init(configuration: UploadConfiguration, transport: any UploadTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// How an upload ended well.
    package struct Outcome: Sendable, Equatable {
        /// The final status of the request that completed it (or of the offset request that
        /// found it complete).
        package var status: Int
        /// Body bytes this run put on the wire, resent ones included.
        package var bytesSent: Int64
        /// Times the upload was continued (`HEAD` then `PATCH`).
        package var resumptions: Int
        /// The file's size: what the server has now.
        package var fileSize: Int64
        /// The resume URL the upload was continued at, nil when the creation request carried
        /// the whole body: where the rest of the bytes went, which may be another host than the
        /// URL given (a 104's `Location` may name any).
        package var continuedAt: HTTPURL?
    }

    /// Uploads `source` to `url`, or continues it at `resumeURL` when an earlier run left one.
    /// - Parameters:
    ///   - url: where the upload is created, and the origin credentials go to.
    ///   - createsAgain: false when `url` cannot create the upload (a blob without its original
    ///     request): a server that forgot the upload then ends it.
    ///   - checkpoint: called with each resume URL a 104 names, before the body goes on; its
    ///     error stops the upload.
    /// - Throws: ``UploadError``.
    func upload(
        _ source: UploadSource, to url: HTTPURL, resumingAt resumeURL: HTTPURL? = nil, createsAgain: Bool = true,
        checkpoint: @Sendable (HTTPURL) throws(UploadError) -> Void,
        onEvent: @Sendable (UploadEvent) -> Void = { _ in }
    ) async throws(UploadError) -> Outcome {
        var run = Run(resume: resumeURL)
        run.createsAgain = createsAgain || resumeURL == nil
        while true {
            let done: Outcome?
            if run.resume == nil {
                done = try await self.create(source, url: url, run: &run, checkpoint: checkpoint, onEvent: onEvent)
            } else {
                done = try await self.continueUpload(source, url: url, run: &run, onEvent: onEvent)
            }
            if let done {
                // A file written to while it was read may have reached the server as a mix of
                // two versions: said, though the server accepted it.
                try source.checkUnchanged()
                return done
            }
        }
    }

    /// What one call of ``upload(_:to:resumingAt:createsAgain:checkpoint:onEvent:)`` has learnt so far.
    private struct Run {
        var resume: HTTPURL?
        /// Failed attempts in a row (``RetryPolicy``); progress of the server's offset resets it.
        var failures = 0
        var restarts = 0
        /// Whether a forgotten upload is created again.
        var createsAgain = true
        var resumptions = 0
        var bytesSent: Int64 = 0
        /// The furthest byte sent to the current resume URL's upload in this run; nil when the
        /// upload was continued from an earlier run, whose sending is not known.
        var sentHighWater: Int64?
        /// The server's offset last seen, to tell progress from a retry that went nowhere.
        var lastOffset: Int64 = -1
        /// The server's `Upload-Limit` last seen.
        var limit: UploadLimit?

        init(resume: HTTPURL?) {
            self.resume = resume
            self.sentHighWater = resume == nil ? 0 : nil
        }
    }

    // MARK: the steps

    /// The creation request with the whole body; nil when the upload goes on elsewhere.
    private func create(
        _ source: UploadSource, url: HTTPURL, run: inout Run,
        checkpoint: @Sendable (HTTPURL) throws(UploadError) -> Void, onEvent: @Sendable (UploadEvent) -> Void
    ) async throws(UploadError) -> Outcome? {
        let draft = self.configuration.draft
        run.sentHighWater = 0
        let resumeBox = Mutex<HTTPURL?>(nil)
        let limitBox = Mutex<UploadLimit?>(nil)
        let trust = self.configuration.trust
        let size = source.size
        let result = try await self.exchange(
            method: self.configuration.creationMethod, url: url, origin: url,
            fields: draft.creationFields(length: source.size), source: source, body: 0..<source.size, run: &run, onEvent: onEvent
        ) { (status: Int, fields: [HTTPHeaderField]) throws(UploadError) in
            if let limit = UploadLimit.read(fields) {
                // Known while the body is still going: a file the server will never take stops
                // the upload now, not once the whole body has been sent.
                limitBox.withLock { $0 = limit }
                if let refusal = limit.refusal(size: size) { throw .beyondServerLimit(refusal) }
            }
            guard resumeBox.withLock({ $0 == nil }) else { return }
            switch draft.informational(status: status, fields: fields) {
            case .other: return
            case .unusable(let reason): onEvent(.notResumable(reason))
            case .resumable(let location):
                switch trust.redirect(from: url, location: location) {
                case .success(let target):
                    try checkpoint(target)
                    resumeBox.withLock { $0 = target }
                    onEvent(.resumable(target))
                case .failure(let error):
                    onEvent(.notResumable("the 104's Location cannot be used: \(error)"))
                }
            }
        }
        if let target = resumeBox.withLock({ $0 }) { run.resume = target }
        if let limit = limitBox.withLock({ $0 }) { run.limit = limit }
        if case .answered(_, let fields, _) = result { Self.remember(UploadLimit.read(fields), in: &run) }
        switch result {
        case .answered(let status, let fields, let bodyComplete) where (200...299).contains(status) && bodyComplete:
            if let refusal = draft.finalOffsetRefusal(fields: fields, end: size, size: size) { throw refusal }
            return Outcome(status: status, bytesSent: run.bytesSent, resumptions: run.resumptions, fileSize: size, continuedAt: nil)
        case .answered(let status, let fields, _):
            let error = TransferError.unexpectedStatus(status)
            guard (200...299).contains(status) || RetryPolicy.retries(status: status) else { throw .transfer(error) }
            try await self.failed(error, run: &run, retryAfter: Self.retryAfter(fields), onEvent: onEvent)
        case .broken(let error):
            try await self.failed(error, run: &run, retryAfter: nil, onEvent: onEvent)
        }
        return nil
    }

    /// The server forgot the upload (404, 410): the next round creates it again, as often as
    /// ``UploadConfiguration/maximumRestarts`` allows, when there is a request to create it with.
    private func forgotten(status: Int, run: inout Run, onEvent: @Sendable (UploadEvent) -> Void) throws(UploadError) {
        guard run.createsAgain else { throw .cannotCreateAgain(status: status) }
        run.restarts += 1
        if run.restarts > self.configuration.maximumRestarts { throw .tooManyRestarts(run.restarts) }
        onEvent(.restarting(status: status))
        run.resume = nil
    }

    /// Asks the server for its offset and appends the rest; nil when another round is needed.
    private func continueUpload(
        _ source: UploadSource, url: HTTPURL, run: inout Run, onEvent: @Sendable (UploadEvent) -> Void
    ) async throws(UploadError) -> Outcome? {
        guard let resume = run.resume else { return nil }
        let draft = self.configuration.draft
        try source.checkUnchanged()
        let head = try await self.offsetRequest(resume: resume, origin: url, run: &run, onEvent: onEvent)
        let offset: Int64
        switch head {
        case .broken(let error):
            try await self.failed(error, run: &run, retryAfter: nil, onEvent: onEvent)
            return nil
        case .answered(let status, let fields, _):
            Self.remember(UploadLimit.read(fields), in: &run)
            let answer = draft.offsetAnswer(status: status, fields: fields)
            if let refusal = answer.refusal(fileSize: source.size, limit: run.limit) { throw refusal }
            switch answer {
            case .incomplete(let value):
                offset = value
            case .complete:
                return Outcome(status: status, bytesSent: run.bytesSent, resumptions: run.resumptions, fileSize: source.size, continuedAt: resume)
            case .gone(let status):
                try self.forgotten(status: status, run: &run, onEvent: onEvent)
                return nil
            case .unavailable(let status):
                try await self.failed(.unexpectedStatus(status), run: &run, retryAfter: Self.retryAfter(fields), onEvent: onEvent)
                return nil
            case .refused(let status):
                throw .transfer(.unexpectedStatus(status))
            case .malformed(let reason):
                throw .malformedAnswer(reason)
            }
        }
        if let sent = run.sentHighWater, offset > sent { throw .offsetBeyondSent(offset: offset, sent: sent) }
        onEvent(.offset(offset))
        if offset > run.lastOffset {
            // The server has more than before: the run of failures is over.
            run.failures = 0
            run.lastOffset = offset
        }
        run.resumptions += 1
        if run.sentHighWater == nil { run.sentHighWater = offset }
        // At most max-append-size bytes per append: a shorter one leaves the upload incomplete,
        // and the next round asks for the offset again and sends the next piece.
        let end = offset + (run.limit?.appendLength(remaining: source.size - offset) ?? source.size - offset)
        let completes = end == source.size
        let append = try await self.exchange(
            method: "PATCH", url: resume, origin: url, fields: draft.appendFields(offset: offset, complete: completes),
            source: source, body: offset..<end, run: &run, onEvent: onEvent
        ) { _, _ throws(UploadError) in }
        switch append {
        case .broken(let error):
            try await self.failed(error, run: &run, retryAfter: nil, onEvent: onEvent)
        case .answered(let status, let fields, let bodyComplete):
            Self.remember(UploadLimit.read(fields), in: &run)
            switch draft.appendAnswer(status: status, fields: fields) {
            case .done where bodyComplete:
                if let refusal = draft.finalOffsetRefusal(fields: fields, end: end, size: source.size) { throw refusal }
                if !completes { return nil }
                return Outcome(status: status, bytesSent: run.bytesSent, resumptions: run.resumptions, fileSize: source.size, continuedAt: resume)
            case .done, .conflict:
                // A 2xx before the whole body went is checked by asking again, as a 409 is.
                try await self.failed(.unexpectedStatus(status), run: &run, retryAfter: nil, onEvent: onEvent)
            case .gone(let status):
                try self.forgotten(status: status, run: &run, onEvent: onEvent)
            case .unavailable:
                try await self.failed(.unexpectedStatus(status), run: &run, retryAfter: Self.retryAfter(fields), onEvent: onEvent)
            case .refused(let status):
                throw .transfer(.unexpectedStatus(status))
            }
        }
        return nil
    }

    /// Counts a failed attempt and waits before the next, or gives up (``RetryPolicy``).
    private func failed(_ error: TransferError, run: inout Run, retryAfter: Duration?, onEvent: @Sendable (UploadEvent) -> Void) async throws(UploadError) {
        switch RetryPolicy.handling(of: error) {
        case .disk, .final: throw .transfer(error)
        case .retryable: break
        }
        run.failures += 1
        switch self.configuration.retry.afterFailure(run.failures, reason: error, retryAfter: retryAfter) {
        case .giveUp(let final): throw .transfer(final)
        case .retry(let delay):
            onEvent(.retrying(attempt: run.failures, delay: delay, reason: error))
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw .transfer(.cancelled)
            }
        }
    }

    /// Keeps the server's latest `Upload-Limit`; it is checked before the next bytes are sent.
    private static func remember(_ limit: UploadLimit?, in run: inout Run) {
        if let limit { run.limit = limit }
    }

    /// The server's `Retry-After`, when it sent one that reads.
    private static func retryAfter(_ fields: [HTTPHeaderField]) -> Duration? {
        fields.value(of: "Retry-After").flatMap { RetryAfter.parse($0, now: Date()) }
    }

    /// The draft's offset-retrieval `HEAD` of `resume`, the one request both the continue step
    /// and ``probe(resumeURL:origin:)`` send: the draft's fields, the caller's headers under the
    /// trust policy (credentials only to `origin`'s origin), and never over http for an upload
    /// that began over https (iOS 18.2's rule for a resume URL, and a redirect's here).
    private func offsetRequest(
        resume: HTTPURL, origin: HTTPURL, run: inout Run, onEvent: @Sendable (UploadEvent) -> Void
    ) async throws(UploadError) -> ExchangeResult {
        if case .failure(.insecureRedirect(let target)) = self.configuration.trust.redirect(from: origin, location: resume.string) {
            throw .transfer(.invalidResumeData("the upload began over https (\(origin.string)) and its resume URL is http (\(target)): refusing to continue it unencrypted"))
        }
        return try await self.exchange(
            method: "HEAD", url: resume, origin: origin, fields: self.configuration.draft.offsetRetrievalFields(),
            source: nil, body: nil, run: &run, onEvent: onEvent
        ) { _, _ throws(UploadError) in }
    }

    /// Asks the server how much of `continuation`'s upload it has, as the continue step asks
    /// (``offsetRequest(resume:origin:run:onEvent:)``), and sends nothing more: `explain --probe`.
    /// The blob gives the draft and the headers, whose credentials go only to its origin;
    /// `configuration` gives the TLS settings and the bounds. A failure is a request that got no
    /// answer, one that was not sent (https → http), or TLS settings that cannot be used.
    package static func probe(_ continuation: UploadContinuation, configuration: UploadConfiguration) async -> Result<UploadProbe, TransferError> {
        do throws(UploadError) {
            return try await ResumableUploader(configuration: continuation.configuration(configuration, adding: []))
                .probe(resumeURL: continuation.resumeURL, origin: continuation.origin)
        } catch .transfer(let error) {
            return .failure(error)
        } catch {
            // The initializer throws nothing else.
            return .failure(.connection(.other("\(error)")))
        }
    }

    private func probe(resumeURL: HTTPURL, origin: HTTPURL) async -> Result<UploadProbe, TransferError> {
        var run = Run(resume: resumeURL)
        let result: ExchangeResult
        do {
            result = try await self.offsetRequest(resume: resumeURL, origin: origin, run: &run) { _ in }
        } catch {
            // Without a file nothing but the transfer can fail.
            guard case .transfer(let transfer) = error else { return .failure(.connection(.closedBeforeHead)) }
            return .failure(transfer)
        }
        switch result {
        case .broken(let error):
            return .failure(error)
        case .answered(let status, let fields, _):
            return .success(UploadProbe(url: resumeURL, status: status, fields: fields, draft: self.configuration.draft))
        }
    }

    // MARK: one request

    private enum ExchangeResult {
        case answered(status: Int, fields: [HTTPHeaderField], bodyComplete: Bool)
        case broken(TransferError)
    }

    /// One request through the transport: the head (the caller's fields under the trust policy,
    /// the draft's), the file's bytes in `body`, and the answer, whose 1xx heads go to
    /// `informational` as they come; what was sent is counted in `run`. `source` is nil for a
    /// request about no file (the probe's `HEAD`): it then has no body.
    private func exchange(
        method: String, url: HTTPURL, origin: HTTPURL, fields draftFields: [HTTPHeaderField], source: UploadSource?,
        body requested: Range<Int64>?, run: inout Run, onEvent: @Sendable (UploadEvent) -> Void,
        informational: @Sendable (Int, [HTTPHeaderField]) throws(UploadError) -> Void
    ) async throws(UploadError) -> ExchangeResult {
        try source?.checkUnchanged()
        let body = source == nil ? nil : requested
        guard let route = DirectRoute(url: url) else { throw .transfer(.invalidURL(url.string)) }
        let bodyLength = body.map { $0.upperBound - $0.lowerBound }
        let head = Self.requestHead(
            method: method, route: route, draft: draftFields,
            caller: TrustPolicy.headers(self.configuration.headers, to: url, startedAt: .checked(origin)),
            bodyLength: bodyLength)
        let result = try await self.transport.exchange(
            head, to: route, via: self.configuration.proxy.server(for: url), body: body, from: source,
            onConnected: { onEvent(.request(method: method, url: url, headers: HTTPHeaderField.fields(of: head.headers))) }
        ) { status, fields, final throws(UploadError) in
            onEvent(.response(status: status, headers: fields))
            if !final { try informational(status, fields) }
        }
        run.bytesSent += result.sent
        if let body, let high = run.sentHighWater { run.sentHighWater = max(high, body.lowerBound + result.sent) }
        // A final head whose body was cut is still the server's answer.
        if let final = result.final {
            return .answered(status: final.status, fields: final.fields, bodyComplete: result.written >= bodyLength ?? 0)
        }
        return .broken(result.broken ?? .connection(.closedBeforeHead))
    }

    /// The request's head (``RequestHeadBuilder``, as a download's): the caller's fields less
    /// the draft's own (`Upload-*` is the draft's to say), then the draft's fields.
    static func requestHead(
        method: String, route: DirectRoute, draft: [HTTPHeaderField], caller: [HTTPHeaderField], bodyLength: Int64?
    ) -> HTTPRequestHead {
        RequestHeadBuilder.head(
            method: method, route: route, caller: caller.filter { !$0.name.lowercased().hasPrefix("upload-") },
            engine: draft, bodyLength: bodyLength)
    }
}
