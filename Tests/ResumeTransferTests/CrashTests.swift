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

/// Runs `resumetool ARGS` in `directory`; with `killAfter`, SIGKILLs it after that long.
/// Returns the exit status, or nil when it was killed.
func runTool(_ arguments: [String], in directory: String, killAfter: Duration? = nil) async throws -> Int32? {
    let process = Process()
    process.executableURL = try resumetoolBinary()
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    if let killAfter {
        try await Task.sleep(for: killAfter)
        kill(process.processIdentifier, SIGKILL)
    }
    while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
    if process.terminationReason == .uncaughtSignal { return nil }
    return process.terminationStatus
}

@Suite(.serialized) struct CrashTests {
    static let size = 24 << 20

    /// `replaceAt`: the iteration after which the server's file changes.
    func killRepeatedly(replaceAt: Int?) async throws {
        let original = testData(count: Self.size, seed: 11)
        let replacement = testData(count: Self.size - 4321, seed: 12)
        let server = try await TestServer.start(serving: original)
        defer { Task { await server.stop() } }
        server.throttle(bytesPerSecond: 8 << 20)
        try await withTemporaryDirectory { directory in
            let arguments = ["download", server.url, "-o", "file.bin", "--quiet", "--checkpoint-bytes", "262144"]
            let destination = directory + "/file.bin"
            var generator = SystemRandomNumberGenerator()
            var killed = 0
            for iteration in 0..<20 {
                let moment = Duration.milliseconds(Int.random(in: 30...200, using: &generator))
                if try await runTool(arguments, in: directory, killAfter: moment) == nil { killed += 1 }
                // Whatever the moment, the destination is absent or whole and right; never partial.
                if let done = contents(destination) {
                    #expect(done == original || done == replacement, "iteration \(iteration): wrong destination")
                }
                if iteration == replaceAt { server.replaceFile(with: replacement) }
            }
            #expect(killed >= 15, "most runs must have been interrupted, or the test proves little")
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
}
