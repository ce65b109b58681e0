import Dispatch
import NIOHTTP1
import ResumeDataCodec
import ResumeSystemCalls
import Synchronization

// The scripted server's answers are read as choices among these.
private let versions = ["3", "5", "6", "7", "8"]
private let creationURLs = ["https://up.test/files/a.bin", "http://up.test/files/a.bin", "https://up.test:8443/a?b=c"]
private let locations = [
    "/up/1", "/up/2", "https://up.test/up/3", "http://up.test/up/4", "https://evil.test/up/5", "https://up.test:8443/up/6",
    "", "ftp://up.test/x", "//evil.test/up", "https://UP.test/up/7", "/up/1#frag", "javascript:x",
]
private let finalStatuses = [200, 201, 204, 204, 400, 404, 409, 410, 416, 429, 500, 503]
private let informationalStatuses = [104, 104, 100, 103, 104]
private let completions = ["?0", "?1", "?1", "x", "1", "?0;a=1"]
private let limits = [
    "max-size=100", "min-size=4096", "max-append-size=1", "max-append-size=100", "max-append-size=0", "max-size=0",
    "max-size=-1", "max-append-size=9999999999999999", "max-size=\"a\"", "expires=10", "max-size=1000, max-append-size=300",
]
private let retryAfters = ["0", "1", "99999999999999999999", "-1", "x"]
/// Why a connection broke, made when asked rather than kept in a global array: `TransferError`
/// is an indirect enum, whose boxes a global would hold through tagged pointers that
/// LeakSanitizer does not see, and the fuzzer would report them as leaks.
private func brokenReason(_ choice: UInt8) -> TransferError {
    switch choice % 6 {
    case 0: .connection(.closedBeforeHead)
    case 1: .stalled
    case 2: .timedOut
    case 3: .connection(.cannotConnect(host: "up.test", port: 443, reason: "Connection refused"))
    case 4: .connection(.closedBeforeEnd(remaining: nil))
    default: .connection(.invalidResponse("a head past the bound"))
    }
}
private let credentials: Set<String> = ["authorization", "cookie", "proxy-authorization"]

/// The fuzzing entry point of the upload engine, for the FuzzUploadAnswers harness (FuzzTesting)
/// and the tests that replay its FailCases: both call this one check.
///
/// The engine's rounds (``ResumableUploader``: create, ask for the offset, append, retry, start
/// over) run against a server scripted by the fuzzer's bytes: 104s with any version and
/// `Location`, final answers with any status, `Upload-Offset`, `Upload-Complete`,
/// `Upload-Incomplete`, `Upload-Limit` and `Retry-After`, bodies cut at any point, connections
/// that break. The file is in memory. Properties checked on every request and at the end:
/// - the engine stops: once the script has run out (every answer a broken connection), within the
///   retry budget; in all, at most one request per script byte plus that budget;
/// - credentials go only to the origin of the creation URL, and an https upload never goes on
///   over http;
/// - a creation sends the whole file; an append starts at the offset the server gave in the
///   answer just before it, says so in `Upload-Offset`, and ends within the file; a `HEAD` carries
///   no body; every body byte sent is the file's byte at that offset;
/// - the upload ends well only on a final 2xx: to a request that sent the rest of the file whole,
///   or to an offset request that says the upload is complete at the file's length.
@_spi(Fuzzing) public enum UploadAnswerCheck {
    /// Plays the answers `bytes` describe against the engine; returns the property that broke,
    /// nil when every one held. Waits for the engine on a thread of its own: for a caller outside
    /// Swift's cooperative pool (the fuzzing harness's main thread).
    public static func check(_ bytes: [UInt8]) -> String? {
        let result = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let broken = await self.check(bytes)
            result.withLock { $0 = broken }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// ``check(_:)`` for a caller in an asynchronous context (the replay tests).
    public static func check(_ bytes: [UInt8]) async -> String? {
        await self.play(bytes)?.broken
    }

    /// What one script came to: the property that broke (nil when all held), the requests the
    /// engine sent (method and URL), and how the upload ended. Nil when the script is too short
    /// to start.
    struct Played {
        var broken: String?
        var requests: [String]
        var outcome: Result<ResumableUploader.Outcome, UploadError>
        /// The engine created the upload again after the server forgot it.
        var restarted: Bool
    }

    static func play(_ bytes: [UInt8]) async -> Played? {
        var input = FuzzChoices(bytes: bytes)
        guard let versionText = input.pick(versions), let version = UploadDraftVersion(versionText),
              let creationText = input.pick(creationURLs), let creation = HTTPURL(creationText),
              let sizeByte = input.byte(), let retries = input.byte(), let fromBlob = input.flag(), let blobLocation = input.pick(locations)
        else { return nil }
        let file = (0..<Int(sizeByte) * 16).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var configuration = UploadConfiguration(
            draft: ResumableUploadDraft(version),
            headers: [("Authorization", "Bearer secret"), ("Cookie", "a=b"), ("X-Other", "1")].compactMap { HTTPHeaderField.engine($0.0, $0.1) },
            maximumRetries: Int(retries % 4), initialBackoff: .zero, maximumRestarts: 2)
        // No waiting in a check: backoff, jitter and Retry-After all come to nothing.
        configuration.retry = RetryPolicy(
            maximumRetries: Int(retries % 4), initialBackoff: .zero, maximumBackoff: .zero, maximumRetryAfter: .zero, jitter: { 0 })
        let server = ScriptedUploadServer(input: input, creation: creation, draft: configuration.draft, file: file)
        let uploader = ResumableUploader(configuration: configuration, transport: server)
        let outcome: Result<ResumableUploader.Outcome, UploadError>
        let restarted = Atomic<Bool>(false)
        do {
            let source = try UploadSource(path: "/fuzz/file", calls: .inMemory(file))
            // A blob's resume URL, as `resume BLOB --file` starts from it.
            let resume = fromBlob ? Self.resolve(blobLocation, against: creation) : nil
            outcome = .success(try await uploader.upload(source, to: creation, resumingAt: resume, checkpoint: { _ throws(UploadError) in }) { event in
                if case .restarting = event { restarted.store(true, ordering: .relaxed) }
            })
        } catch {
            outcome = .failure(error)
        }
        let (broken, requests) = server.verdict(outcome: outcome, scriptLength: bytes.count, retries: Int(retries % 4))
        return Played(broken: broken, requests: requests, outcome: outcome, restarted: restarted.load(ordering: .relaxed))
    }

    private static func resolve(_ location: String, against base: HTTPURL) -> HTTPURL? {
        guard case .success(let target) = TrustPolicy().redirect(from: base, location: location) else { return nil }
        return target
    }
}

/// The server side of ``UploadAnswerCheck``: answers each request from the script, and checks
/// each request as it comes.
private final class ScriptedUploadServer: UploadTransport {
    private struct State {
        var input: FuzzChoices
        /// Each request's method and URL, in order.
        var requests: [String] = []
        /// The first property that broke.
        var broken: String?
        /// The offset the last offset request's answer gave, and the URL it was asked at.
        var lastOffset: (url: String, offset: Int64)?
        /// What the last request was and how it ended: a final 2xx that ends the upload or not.
        var lastEnded: (method: String, status: Int?, completes: Bool)?
    }

    private let state: Mutex<State>
    private let creation: HTTPURL
    private let creationRoute: DirectRoute?
    /// The engine's draft: how it reads an offset answer.
    private let draft: ResumableUploadDraft
    private let file: [UInt8]

    init(input: FuzzChoices, creation: HTTPURL, draft: ResumableUploadDraft, file: [UInt8]) {
        self.state = Mutex(State(input: input))
        self.creation = creation
        self.draft = draft
        self.creationRoute = DirectRoute(url: creation)
        self.file = file
    }

    /// The property that broke, if any, and the requests sent.
    func verdict(outcome: Result<ResumableUploader.Outcome, UploadError>, scriptLength: Int, retries: Int) -> (String?, [String]) {
        self.state.withLock { state in (Self.broken(state, outcome: outcome, scriptLength: scriptLength, retries: retries), state.requests) }
    }

    private static func broken(_ state: State, outcome: Result<ResumableUploader.Outcome, UploadError>, scriptLength: Int, retries: Int) -> String? {
        if let broken = state.broken { return broken }
        // Each scripted answer takes at least one byte; once they run out, every answer is a
        // broken connection, which makes no progress, so the retry budget ends the upload.
        if state.requests.count > scriptLength + retries + 2 {
            return "\(state.requests.count) requests for a script of \(scriptLength) bytes and \(retries) retries"
        }
        if case .success(let outcome) = outcome {
            guard let last = state.lastEnded, let status = last.status, (200...299).contains(status), last.completes else {
                return "the upload ended well (\(outcome)) after \(state.lastEnded.map { "\($0)" } ?? "no request")"
            }
        }
        return nil
    }

    func exchange(
        _ head: HTTPRequestHead, to route: DirectRoute, via proxy: ProxySettings.Server?, body: Range<Int64>?, from source: UploadSource?,
        onConnected: () -> Void,
        onHead: @Sendable (_ status: Int, _ fields: [HTTPHeaderField], _ final: Bool) throws(UploadError) -> Void
    ) async throws(UploadError) -> UploadTransportResult {
        let url = "\(route.usesTLS ? "https" : "http")://\(route.hostHeader)\(route.target)"
        let method = head.method.rawValue
        // The request, checked.
        let problem = self.problem(with: head, url: url, route: route, body: body, source: source)
        let script = self.state.withLock { state -> Script? in
            state.requests.append("\(method) \(url)")
            if let problem, state.broken == nil { state.broken = problem }
            return Script(&state.input, file: Int64(self.file.count), body: body)
        }
        guard let script else {
            self.ended(method: method, status: nil, completes: false)
            return UploadTransportResult(broken: .connection(.closedBeforeHead))
        }
        if let broken = script.broken {
            self.ended(method: method, status: nil, completes: false)
            return UploadTransportResult(broken: broken)
        }
        onConnected()
        let length = body.map { $0.upperBound - $0.lowerBound } ?? 0
        let written = min(script.written, length)
        for (status, fields) in script.informational {
            do throws(UploadError) {
                try onHead(status, fields, false)
            } catch {
                self.ended(method: method, status: nil, completes: false)
                throw error
            }
        }
        try? onHead(script.status, script.fields, true)
        if method == "HEAD" {
            let answer = self.draft.offsetAnswer(status: script.status, fields: script.fields)
            self.state.withLock { state in
                if case .incomplete(let offset) = answer { state.lastOffset = (url, offset) } else { state.lastOffset = nil }
            }
            let complete: Bool
            switch answer {
            case .complete(let offset): complete = offset == nil || offset == Int64(self.file.count)
            default: complete = false
            }
            self.ended(method: method, status: script.status, completes: complete)
        } else {
            let whole = written == length && (body?.upperBound ?? 0) == Int64(self.file.count)
            self.ended(method: method, status: script.status, completes: whole)
        }
        return UploadTransportResult(final: (script.status, script.fields), sent: written, written: written)
    }

    private func ended(method: String, status: Int?, completes: Bool) {
        self.state.withLock { $0.lastEnded = (method, status, completes) }
    }

    /// What is wrong with a request, if anything.
    private func problem(with head: HTTPRequestHead, url: String, route: DirectRoute, body: Range<Int64>?, source: UploadSource?) -> String? {
        let method = head.method.rawValue
        let size = Int64(self.file.count)
        if let start = self.creationRoute {
            let sameOrigin = start.usesTLS == route.usesTLS && start.host.lowercased() == route.host.lowercased() && start.port == route.port
            if !sameOrigin, let name = head.headers.map(\.name).first(where: { credentials.contains($0.lowercased()) }) {
                return "\(name) sent to \(url), another origin than \(self.creation)"
            }
            if start.usesTLS, !route.usesTLS { return "an https upload went on over http: \(method) \(url)" }
        }
        switch method {
        case "HEAD":
            if body != nil { return "a HEAD with a body" }
        case "PATCH":
            guard let body else { return "a PATCH without a body" }
            let asked = self.state.withLock { state -> (url: String, offset: Int64)? in
                defer { state.lastOffset = nil }
                return state.lastOffset
            }
            guard let asked, asked.url == url, asked.offset == body.lowerBound else {
                return "PATCH \(url) from byte \(body.lowerBound) without an offset answer there (\(asked.map { "\($0)" } ?? "none"))"
            }
            if head.headers.first(name: "Upload-Offset") != String(body.lowerBound) {
                return "PATCH from byte \(body.lowerBound) says Upload-Offset: \(head.headers.first(name: "Upload-Offset") ?? "(none)")"
            }
            // An empty append at the file's end is how the draft completes an upload the server
            // holds whole but was not told is complete.
            if body.upperBound > size || (body.isEmpty && body.lowerBound != size) { return "PATCH of bytes \(body) of a \(size)-byte file" }
        default:
            if body != 0..<size { return "\(method) creation with bytes \(body.map { "\($0)" } ?? "none") of a \(size)-byte file" }
        }
        if let body, !body.isEmpty {
            guard let bytes = try? source?.read(from: body.lowerBound, count: Int(body.upperBound - body.lowerBound)) else {
                return "bytes \(body) of the file cannot be read"
            }
            if Array(bytes.readableBytesView) != Array(self.file[Int(body.lowerBound)..<Int(body.upperBound)]) {
                return "the body of \(method) \(url) is not the file's bytes \(body)"
            }
        }
        if head.headers.first(name: "Content-Length") != body.map({ String($0.upperBound - $0.lowerBound) }) {
            return "\(method) Content-Length \(head.headers.first(name: "Content-Length") ?? "(none)") for a body of \(body.map { "\($0.count)" } ?? "none")"
        }
        return nil
    }
}

/// One scripted answer: a broken connection, or 1xx heads and a final head, with how much of the
/// body the connection took first.
private struct Script {
    var broken: TransferError?
    var informational: [(Int, [HTTPHeaderField])] = []
    var status = 0
    var fields: [HTTPHeaderField] = []
    var written: Int64 = 0

    /// Nil when the script has run out.
    init?(_ input: inout FuzzChoices, file size: Int64, body: Range<Int64>?) {
        guard let kind = input.byte() else { return nil }
        if kind % 8 == 0 {
            guard let choice = input.byte() else { return nil }
            self.broken = brokenReason(choice)
            return
        }
        let length = body.map { $0.upperBound - $0.lowerBound } ?? 0
        let start = body?.lowerBound ?? 0
        for _ in 0..<Int(kind % 3) {
            guard let status = input.pick(informationalStatuses), let fields = Self.fields(&input, size: size, near: start) else { return nil }
            self.informational.append((status, fields))
        }
        guard let status = input.pick(finalStatuses), let fields = Self.fields(&input, size: size, near: start + length),
              let cut = input.byte()
        else { return nil }
        self.status = status
        self.fields = fields
        switch cut % 4 {
        case 0: self.written = 0
        case 1: self.written = length / 2
        default: self.written = length
        }
    }

    /// A few of the draft's fields, each chosen or left out.
    private static func fields(_ input: inout FuzzChoices, size: Int64, near anchor: Int64) -> [HTTPHeaderField]? {
        guard let mask = input.byte() else { return nil }
        var fields: [HTTPHeaderField] = []
        func add(_ name: String, _ value: String?) {
            if let value, let field = HTTPHeaderField.engine(name, value) { fields.append(field) }
        }
        if mask & 1 != 0 { add("Upload-Draft-Interop-Version", input.pick(versions)) }
        if mask & 2 != 0 { add("Location", input.pick(locations)) }
        if mask & 4 != 0 {
            guard let choice = input.byte() else { return nil }
            add("Upload-Offset", choice & 1 == 0 ? input.number(near: anchor).map(String.init) : input.number(near: size).map(String.init))
        }
        if mask & 8 != 0 { add("Upload-Complete", input.pick(completions)) }
        if mask & 16 != 0 { add("Upload-Incomplete", input.pick(completions)) }
        if mask & 32 != 0 { add("Upload-Limit", input.pick(limits)) }
        if mask & 64 != 0 { add("Retry-After", input.pick(retryAfters)) }
        return fields
    }
}

extension FileSystemCalls {
    /// A file held in memory, for the fuzzing check: opening any path gives it, unchanged for ever.
    fileprivate static func inMemory(_ bytes: [UInt8]) -> FileSystemCalls {
        var calls = FileSystemCalls.system
        let status = FileSystemCalls.Status(kind: .regular, size: Int64(bytes.count))
        calls.open = { _, _, _ in .success(3) }
        calls.close = { _ in .success(()) }
        calls.fstat = { _ in .success(status) }
        calls.pread = { _, buffer, offset in
            guard offset >= 0, offset < Int64(bytes.count) else { return .success(0) }
            let count = min(buffer.count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[Int(offset)..<Int(offset) + count])) }
            return .success(count)
        }
        return calls
    }
}
