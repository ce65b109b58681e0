#if os(Linux)
import Foundation
@testable import ResumeSystemCalls
import Synchronization
import Testing

@testable import ResumeTransfer

import Glibc

/// The direct path's low-water mark (``DirectConnection/receiveLowWater``): during a body the
/// socket wakes the receiver once a quarter MiB waits, and every gather interval the receiver
/// takes what is there, so a body smaller than the mark, or a slow trickle, still arrives and
/// only silence is a stall.
@Suite struct DirectLowWaterTests {
    /// What the seam was asked: the low-water marks set, and how often waiting bytes were counted.
    private final class Asked: Sendable {
        let marks = Mutex<[Int32]>([])
        let counts = Mutex(0)
    }

    private func calls(_ asked: Asked, refuseMark: Bool = false, countFails: Bool = false) -> FileSystemCalls {
        var calls = FileSystemCalls.system
        let set = calls.sockets.setReceiveLowWater
        calls.sockets.setReceiveLowWater = { socket, bytes in
            asked.marks.withLock { $0.append(bytes) }
            return refuseMark ? .failure(FileSystemCalls.Failure(ENOPROTOOPT)) : set(socket, bytes)
        }
        let pending = calls.sockets.pendingBytes
        calls.sockets.pendingBytes = { socket in
            asked.counts.withLock { $0 += 1 }
            return countFails ? .failure(FileSystemCalls.Failure(EIO)) : pending(socket)
        }
        return calls
    }

    private func download(
        _ scripts: [[RawServer.Step]], calls: FileSystemCalls, stall: Duration = .seconds(10), rate: Int64? = nil, tls: Bool = false
    ) async throws -> (DownloadState, Data?) {
        let server = try await RawServer.start(scripts, tls: tls)
        var configuration = fastConfiguration(retries: 0, stall: stall)
        configuration.maximumBytesPerSecond = rate
        if tls { configuration.certificateAuthorityFile = TestServer.certificateAuthorityFile }
        let url = tls ? "https://\(server.host):\(server.port)/raw.bin" : server.url
        let downloader = Downloader(configuration: configuration, calls: calls)
        let result = try await withTemporaryDirectory { directory -> (DownloadState, Data?) in
            let destination = directory + "/raw.bin"
            let state = await downloader.download(from: url, to: destination).result()
            return (state, contents(destination))
        }
        try await downloader.shutdown()
        await server.stop()
        return result
    }

    /// 20 pieces of 500 bytes, 100 ms apart, then nothing: never 256 KiB, so without the gather
    /// the download would stall.
    private static let trickle: [RawServer.Step] = {
        var steps: [RawServer.Step] = [.text("HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n")]
        for index in 0..<20 {
            steps.append(.send([UInt8](repeating: UInt8(index), count: 500)))
            steps.append(.pause(.milliseconds(100)))
        }
        steps.append(.hold)
        return steps
    }()

    private static let trickled = Data((0..<20).flatMap { [UInt8](repeating: UInt8($0), count: 500) })

    @Test func aBodyBelowTheMarkOnAConnectionLeftOpenArrives() async throws {
        let asked = Asked()
        // The body comes after the head, not with it, and then the server neither closes nor
        // sends more: only the gather interval brings the bytes.
        let (state, file) = try await self.download(
            [[.text("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), .pause(.milliseconds(100)), .send([UInt8](repeating: 7, count: 1000)), .hold]],
            calls: self.calls(asked))
        #expect(state == .completed)
        #expect(file == Data(repeating: 7, count: 1000))
        #expect(asked.marks.withLock { $0 } == [262_144])
    }

    @Test(arguments: [false, true])
    func aTrickleBelowTheMarkIsNotAStall(tls: Bool) async throws {
        let asked = Asked()
        let (state, file) = try await self.download([Self.trickle], calls: self.calls(asked), tls: tls)
        #expect(state == .completed)
        #expect(file == Self.trickled)
    }

    @Test func silenceIsStillAStall() async throws {
        let asked = Asked()
        let (state, _) = try await self.download(
            [[.text("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), .send([1, 2, 3]), .hold]],
            calls: self.calls(asked), stall: .milliseconds(300))
        #expect(state == .failed(.retriesExhausted(last: .stalled, attempts: 0)))
    }

    @Test func aSystemWithoutTheMarkDownloadsAsBefore() async throws {
        let asked = Asked()
        let (state, file) = try await self.download([Self.trickle], calls: self.calls(asked, refuseMark: true))
        #expect(state == .completed)
        #expect(file == Self.trickled)
        #expect(asked.marks.withLock { $0 } == [262_144])
        // Without the mark, poll wakes at every byte: nothing to count.
        #expect(asked.counts.withLock { $0 } == 0)
    }

    @Test func aFailedCountOfTheWaitingBytesIsAConnectionError() async throws {
        let asked = Asked()
        // Half the body, then nothing: the receiver always ends up waiting, and counting.
        let (state, _) = try await self.download(
            [[.text("HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n"), .send([UInt8](repeating: 5, count: 1000)), .hold]],
            calls: self.calls(asked, countFails: true))
        #expect(state == .failed(.retriesExhausted(last: .connection(.systemCall("ioctl(FIONREAD)", reason: "Input/output error")), attempts: 0)))
    }

    @Test func aRateLimitReadsInSmallStepsWithoutTheMark() async throws {
        let asked = Asked()
        let (state, file) = try await self.download(
            [[.text("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), .send([UInt8](repeating: 9, count: 1000)), .hold]],
            calls: self.calls(asked), rate: 1 << 20)
        #expect(state == .completed)
        #expect(file == Data(repeating: 9, count: 1000))
        #expect(asked.marks.withLock { $0 }.isEmpty)
    }
}
#endif
