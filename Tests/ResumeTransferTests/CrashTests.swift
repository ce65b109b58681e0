import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `resumetool`, next to the test bundle.
func resumetoolBinary() throws -> URL {
    var directory = Bundle.main.bundleURL
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("resumetool")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw BinaryMissing()
}

struct BinaryMissing: Error, CustomStringConvertible {
    var description: String { "resumetool was not built next to the test bundle; run `swift build` first" }
}

/// What a finished `resumetool` run printed.
struct ToolResult: Equatable {
    /// nil when the process was killed by a signal.
    var status: Int32?
    var stdout: String
    var stderr: String
    /// From the launch to the exit as the process's own termination handler saw it, off the
    /// cooperative pool: under a suite's load the awaiting task may resume minutes later, and a
    /// clock read there measured the pool, not the tool. Not part of equality.
    var elapsed: Duration = .zero

    static func == (lhs: ToolResult, rhs: ToolResult) -> Bool {
        lhs.status == rhs.status && lhs.stdout == rhs.stdout && lhs.stderr == rhs.stderr
    }
}

/// The moment a process ended, written by its termination handler's thread.
private final class ExitMoment: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: ContinuousClock.Instant?

    func record() { lock.withLock { instant = .now } }
    var value: ContinuousClock.Instant? { lock.withLock { instant } }
}

/// Runs `resumetool ARGS` in `directory`. With `killAfter`, sends `signal` after that long.
/// `shell` wraps the command in `sh -c` (for ulimit/trap); `$TOOL` in it names the binary.
func runToolCapturing(
    _ arguments: [String], in directory: String, signal: Int32 = SIGKILL, after delay: Duration? = nil,
    when ready: (@Sendable () -> Bool)? = nil, shell: String? = nil, environment: [String: String] = [:]
) async throws -> ToolResult {
    let process = Process()
    let binary = try resumetoolBinary()
    if let shell {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", shell + " \"$@\"", "sh"] + arguments
        process.environment = ["TOOL": binary.path, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
    } else {
        process.executableURL = binary
        process.arguments = arguments
        // Hermetic: a proxy set on the machine running the tests must not carry their requests.
        let proxyVariables: Set = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]
        process.environment = ProcessInfo.processInfo.environment.filter { !proxyVariables.contains($0.key) }.merging(environment) { $1 }
    }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let exited = ExitMoment()
    process.terminationHandler = { _ in exited.record() }
    let launched = ContinuousClock.now
    try process.run()
    if ready != nil || delay != nil {
        let pid = process.processIdentifier
        // The wait and the signal run on a thread of their own. On the cooperative pool they
        // waited behind tests that block its threads: under load a poll came late enough that the
        // run it was meant to interrupt had already finished.
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                if let ready {
                    // Up to 10 s; past that the signal goes anyway and the caller's assertions say what happened.
                    var polls = 0
                    while !ready(), polls < 1000 {
                        usleep(10_000)
                        polls += 1
                    }
                }
                if let delay {
                    let (seconds, attoseconds) = delay.components
                    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) * 1e-18)
                    kill(pid, signal)
                }
                finished.resume()
            }
        }
    }
    while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let status = process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    // The handler may run a moment after isRunning turns false; wait for it off the pool's clock.
    var polls = 0
    while exited.value == nil, polls < 2000 {
        usleep(1000)
        polls += 1
    }
    let elapsed = (exited.value ?? .now) - launched
    return ToolResult(status: status, stdout: stdout, stderr: stderr, elapsed: elapsed)
}

/// Runs `resumetool ARGS` in `directory`; with `killAfter`, SIGKILLs it after that long.
/// Returns the exit status, or nil when it was killed.
func runTool(_ arguments: [String], in directory: String, killAfter: Duration? = nil) async throws -> Int32? {
    try await runToolCapturing(arguments, in: directory, after: killAfter).status
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

@Suite(.serialized) struct CrashTests {
    static let size = 24 << 20

    /// `replaceAt`: the iteration after which the server's file changes; `tls`: over https (the
    /// direct path's TLS, issue 24).
    func killRepeatedly(replaceAt: Int?, tls: Bool = false) async throws {
        let original = testData(count: Self.size, seed: 11)
        let replacement = testData(count: Self.size - 4321, seed: 12)
        let server = try await TestServer.start(serving: original, tls: tls)
        defer { Task { await server.stop() } }
        server.throttle(bytesPerSecond: 8 << 20)
        // No run can finish while the kills go on, so every one of the 20 is a real interruption.
        server.holdBack(1 << 20)
        try await withTemporaryDirectory { directory in
            let arguments = ["download", server.url, "-o", "file.bin", "--quiet", "--checkpoint-bytes", "262144"]
                + (tls ? ["--cacert", TestServer.certificateAuthorityFile] : [])
            let destination = directory + "/file.bin"
            var generator = SystemRandomNumberGenerator()
            var killed = 0
            for iteration in 0..<20 {
                // Kill at a random moment once this run has written new bytes, so every kill
                // lands mid-transfer however slow the machine is.
                let before = fileSize(destination + ".part")
                let moment = Duration.milliseconds(Int.random(in: 0...120, using: &generator))
                let run = try await runToolCapturing(
                    arguments, in: directory, after: moment, when: { fileSize(destination + ".part") > before })
                if run.status == nil { killed += 1 }
                // Whatever the moment, the destination is absent or whole and right; never partial.
                if let done = contents(destination) {
                    #expect(done == original || done == replacement, "iteration \(iteration): wrong destination")
                }
                if iteration == replaceAt { server.replaceFile(with: replacement) }
            }
            #expect(killed == 20)
            server.holdBack(0)
            // Interrupted runs continued where the last one stopped instead of starting over.
            #expect(server.getRequests.filter { $0.headers["range"] != nil }.count >= 10)
            #expect(try await runTool(arguments, in: directory) == 0)
            let expected = replaceAt == nil ? original : replacement
            #expect(contents(destination).map(sha256Hex) == sha256Hex(expected))
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
        }
    }

    @Test func sigkillAtTwentyRandomMomentsGivesTheServersFile() async throws {
        try await self.killRepeatedly(replaceAt: nil)
    }

    @Test func fileReplacedDuringAnInterruptionGivesTheNewFile() async throws {
        try await self.killRepeatedly(replaceAt: 4)
    }

    @Test func sigkillAtTwentyRandomMomentsOfAnHTTPSDownloadGivesTheServersFile() async throws {
        try await self.killRepeatedly(replaceAt: nil, tls: true)
    }
}
