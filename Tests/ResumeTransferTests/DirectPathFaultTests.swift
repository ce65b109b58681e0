#if os(Linux)
import Foundation
@testable import ResumeSystemCalls
import Synchronization
import Testing

@testable import ResumeTransfer

import Glibc

private let served = testData(count: 4 << 20, seed: 31)

/// Fails one socket call with `code` once at least `after` bytes came through that call: a
/// connection reset or an I/O error in the middle of the body.
private final class MidBodyFault: Sendable {
    private let state = Mutex((moved: 0, fired: false))
    let after: Int
    let code: Int32

    init(after: Int, code: Int32) {
        self.after = after
        self.code = code
    }

    var fired: Bool { self.state.withLock { $0.fired } }

    func pass(_ call: () -> Result<Int, FileSystemCalls.Failure>) -> Result<Int, FileSystemCalls.Failure> {
        let fire = self.state.withLock { state in
            guard !state.fired, state.moved >= self.after else { return false }
            state.fired = true
            return true
        }
        if fire { return .failure(FileSystemCalls.Failure(self.code)) }
        let result = call()
        if case .success(let count) = result { self.state.withLock { $0.moved += count } }
        return result
    }
}

/// A resolver that answers every name with one `getaddrinfo` code, and counts what it was asked.
private final class FailingResolver: Sendable {
    private let asked = Mutex<[String]>([])
    let code: Int32

    init(code: Int32) {
        self.code = code
    }

    var questions: [String] { self.asked.withLock { $0 } }

    func resolve(_ host: String, _ port: Int) -> Result<[ResolvedAddress], ResolutionFailure> {
        self.asked.withLock { $0.append("\(host) \(port)") }
        return .failure(ResolutionFailure(code: self.code))
    }
}

/// The direct path (``DirectReceiver``) with a socket call failing mid-body through the seam
/// (``FileSystemCalls/sockets``): the attempt ends with a connection error naming the reason,
/// never a trap; the partial file and the blob left behind are valid; a retry, or the next run,
/// finishes the file byte-identical.
@Suite(.serialized) struct DirectPathFaultTests {
    private func configuration(retries: Int) -> DownloadConfiguration {
        var configuration = fastConfiguration(retries: retries)
        configuration.checkpointBytes = 64 << 10
        configuration.writeBatchBytes = 16 << 10
        return configuration
    }

    private func download(_ server: TestServer, to destination: String, calls: FileSystemCalls, retries: Int) async throws -> DownloadState {
        let downloader = Downloader(configuration: self.configuration(retries: retries), calls: calls)
        let task = downloader.download(from: server.url, to: destination)
        let state = await task.result()
        try await downloader.shutdown()
        return state
    }

    /// The system's calls with `recv` (the path without splice) or the socket-to-pipe splice failing.
    private func calls(failing fault: MidBodyFault, splice: Bool) -> FileSystemCalls {
        var calls = FileSystemCalls.system
        if splice {
            let real = calls.sockets.spliceFromSocket
            calls.sockets.spliceFromSocket = { socket, pipe, count in fault.pass { real(socket, pipe, count) } }
        } else {
            // Without splice every body byte is received with recv and written with pwrite.
            calls.spliceToFile = nil
            let real = calls.sockets.recv
            calls.sockets.recv = { socket, buffer in fault.pass { real(socket, buffer) } }
        }
        return calls
    }

    private static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("direct-fault-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [(false, ECONNRESET), (false, EIO), (true, ECONNRESET), (true, EIO)])
    func aFailedReceiveMidBodyEndsTheAttemptCleanlyAndTheNextRunFinishes(splice: Bool, code: Int32) async throws {
        let server = try await TestServer.start(serving: served)
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let destination = folder + "/f.bin"
        let fault = MidBodyFault(after: 256 << 10, code: code)

        let state = try await self.download(server, to: destination, calls: self.calls(failing: fault, splice: splice), retries: 0)
        #expect(fault.fired)
        let reason = String(cString: strerror(code))
        #expect(state == .failed(.retriesExhausted(last: .connection(.systemCall("receive", reason: reason)), attempts: 0)))
        // What is left is a valid partial download: the blob claims only bytes the file holds,
        // and they are the server's.
        #expect(!FileManager.default.fileExists(atPath: destination))
        let blob = try Data(contentsOf: URL(fileURLWithPath: destination + ".resume"))
        let claimed = Int(try ResumeCheckpoint.decode(blob).checkpoint.bytesReceived)
        let part = try Data(contentsOf: URL(fileURLWithPath: destination + ".part"))
        #expect(claimed <= part.count)
        #expect(part.prefix(claimed) == served.prefix(claimed))

        let again = try await self.download(server, to: destination, calls: .system, retries: 0)
        #expect(again == .completed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == served)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["f.bin"])
        await server.stop()
    }

    @Test(arguments: [(false, ECONNRESET), (true, EIO)])
    func aRetryAfterAFailedReceiveFinishesTheFile(splice: Bool, code: Int32) async throws {
        let server = try await TestServer.start(serving: served)
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let destination = folder + "/f.bin"
        let fault = MidBodyFault(after: 256 << 10, code: code)
        let state = try await self.download(server, to: destination, calls: self.calls(failing: fault, splice: splice), retries: 2)
        #expect(fault.fired)
        #expect(state == .completed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == served)
        // The retry asked for the rest only.
        #expect(server.getRequests.count == 2)
        #expect(server.getRequests.last?.headers["range"]?.hasPrefix("bytes=") == true)
        await server.stop()
    }

    /// Name resolution goes through the seam (``SocketCalls/resolve``) like every other socket
    /// call: a name that does not resolve is final (it will not on a retry), reported in the
    /// resolver's words, asked once, and nothing reaches the server.
    @Test(arguments: [EAI_NONAME, EAI_AGAIN, EAI_SYSTEM])
    func aNameThatDoesNotResolveIsFinalAndAskedOnce(code: Int32) async throws {
        let server = try await TestServer.start(serving: served)
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = FailingResolver(code: code)
        var calls = FileSystemCalls.system
        calls.sockets.resolve = { host, port in resolver.resolve(host, port) }
        let state = try await self.download(server, to: folder + "/f.bin", calls: calls, retries: 3)
        let reason = String(cString: gai_strerror(code))
        #expect(state == .failed(.cannotResolve(host: server.host, reason: reason)))
        #expect(TransferError.cannotResolve(host: server.host, reason: reason).description == "connection failed: cannot resolve \(server.host): \(reason)")
        #expect(resolver.questions == ["\(server.host) \(server.port)"])
        #expect(server.getRequests.isEmpty)
        await server.stop()
    }
}
#endif
