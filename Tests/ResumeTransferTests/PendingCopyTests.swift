#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import ResumeSystemCalls
import Synchronization
import Testing
@testable import ResumeTransfer

/// `resume` asks the server before it copies a device's partial file (``PendingCopy``): the
/// input's bytes are copied once the first response continues after them (a 206 at that
/// offset, or a 416 that says they are the whole file), and not at all when the server answers
/// with another file or the whole file again. A run that stops before then leaves nothing at
/// the output, and the input and its blob continue the download as before.
@Suite struct PendingCopyTests {
    static let received = 300_000

    /// Counts the kernel copies (`copy_file_range`, also a refused one) the engine asks for, and
    /// fails them with `failure` when one is given.
    final class CopyCounter: Sendable {
        let count = Mutex(0)
        let failure: Int32?

        init(failing failure: Int32? = nil) {
            self.failure = failure
        }

        var calls: FileSystemCalls {
            var calls = FileSystemCalls.system
            let real = calls.copyRange
            calls.copyRange = { source, sourceOffset, target, targetOffset, length in
                self.count.withLock { $0 += 1 }
                if let failure = self.failure { return .failure(FileSystemCalls.Failure(failure)) }
                guard let real else { return .failure(FileSystemCalls.Failure(ENOSYS)) }
                return real(source, sourceOffset, target, targetOffset, length)
            }
            return calls
        }

        var copies: Int { self.count.withLock { $0 } }
    }

    /// A device's folder beside the output (one file system, so the kernel copies) with a
    /// partial file of `data`'s first `count` bytes and a blob for it, as `rebuild` makes it.
    static func device(_ data: Data, count: Int, server: TestServer, in directory: String) async throws -> (blob: String, partial: String) {
        try FileManager.default.createDirectory(atPath: directory + "/device", withIntermediateDirectories: false)
        let partial = directory + "/device/CFNetworkDownload_Pending.tmp"
        try data.prefix(count).write(to: URL(fileURLWithPath: partial))
        let rebuilt = try await runToolCapturing(
            ["rebuild", "--from", partial, "--url", server.url, "--etag", server.file.etag, "-o", "device/blob.resumedata"], in: directory)
        #expect(rebuilt == ToolResult(status: 0, stdout: "", stderr: ""))
        return (directory + "/device/blob.resumedata", partial)
    }

    /// Runs `resume` of the device's blob to `out.bin` in `directory` with `counter`'s calls.
    static func resume(
        _ blob: String, partial: String, in directory: String, counter: CopyCounter, configuration: DownloadConfiguration = fastConfiguration()
    ) async throws -> (state: DownloadState, events: [DownloadEvent]) {
        let downloader = Downloader(configuration: configuration, calls: counter.calls)
        let task = try downloader.resume(blobAt: blob, partialFile: partial, to: directory + "/out.bin")
        let state = await task.result()
        var events: [DownloadEvent] = []
        for await event in task.events { events.append(event) }
        try await downloader.shutdown()
        return (state, events)
    }

    @Test func aServerThatContinuesGetsTheInputCopiedFirst() async throws {
        let data = testData(count: 1 << 20, seed: 91)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: Self.received, server: server, in: directory)
            let before = ResumeInputTests.Identity(partial)
            let counter = CopyCounter()
            let (state, events) = try await Self.resume(blob, partial: partial, in: directory, counter: counter)
            #expect(state == .completed)
            #expect(contents(directory + "/out.bin") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(Self.received)-"])
            #expect(counter.copies >= 1)
            #expect(!events.contains { if case .restarted = $0 { true } else { false } })
            #expect(ResumeInputTests.Identity(partial) == before)
        }
    }

    /// Another file at the URL: If-Range fails, the server sends the new file whole, and the
    /// input is never copied (a 2 GB partial file would have been, holes filled).
    @Test func anotherFileIsFetchedWithoutCopyingTheInput() async throws {
        let data = testData(count: 1 << 20, seed: 92)
        let other = testData(count: 200_000, seed: 93)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: Self.received, server: server, in: directory)
            server.replaceFile(with: other)
            let counter = CopyCounter()
            let (state, events) = try await Self.resume(blob, partial: partial, in: directory, counter: counter)
            #expect(state == .completed)
            #expect(contents(directory + "/out.bin") == other)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(Self.received)-"])
            #expect(counter.copies == 0)
            // The user still learns that the input's bytes were not continued.
            #expect(events.contains(.restarted(.fileChanged)))
            #expect(contents(partial) == data.prefix(Self.received))
        }
    }

    /// A 416 for a file now shorter than the input (same validators): the engine starts over
    /// with a plain request, and the input is never copied.
    @Test func aShorterFileAnswered416IsFetchedWithoutCopyingTheInput() async throws {
        let data = testData(count: 1 << 20, seed: 94)
        let shorter = testData(count: 100_000, seed: 95)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: Self.received, server: server, in: directory)
            let (etag, lastModified) = (server.file.etag, server.file.lastModified)
            server.replaceFile(with: shorter)
            server.setValidators(etag: etag, lastModified: lastModified)
            let counter = CopyCounter()
            let (state, _) = try await Self.resume(blob, partial: partial, in: directory, counter: counter)
            #expect(state == .completed)
            #expect(contents(directory + "/out.bin") == shorter)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(Self.received)-", nil])
            #expect(counter.copies == 0)
        }
    }

    /// The input is the whole file: the server's 416 (`bytes */SIZE`, same validators) says so,
    /// and the input's bytes are copied to finish it.
    @Test func aWholeInputAnswered416IsCopiedAndFinished() async throws {
        let data = testData(count: 1 << 20, seed: 96)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: data.count, server: server, in: directory)
            let counter = CopyCounter()
            let (state, _) = try await Self.resume(blob, partial: partial, in: directory, counter: counter)
            #expect(state == .completed)
            #expect(contents(directory + "/out.bin") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(data.count)-"])
            #expect(counter.copies >= 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device", "out.bin"])
        }
    }

    /// A server that never answers: the run fails, and leaves neither a partial file nor a
    /// checkpoint at the output; the same resume finishes once the server answers.
    @Test func aRunThatStopsBeforeTheServerAnswersLeavesNothing() async throws {
        let data = testData(count: 1 << 20, seed: 97)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: Self.received, server: server, in: directory)
            let silent = try await RawServer.start([[.hold]])
            var configuration = fastConfiguration(retries: 0, stall: .milliseconds(300))
            configuration.responseTimeout = .milliseconds(300)
            // The same partial file, its blob naming the silent server: its answer never comes.
            let rebuilt = try await runToolCapturing(
                ["rebuild", "--from", partial, "--url", silent.url, "--etag", server.file.etag, "-o", "device/silent.resumedata"], in: directory)
            #expect(rebuilt.status == 0)
            let counter = CopyCounter()
            let downloader = Downloader(configuration: configuration, calls: counter.calls)
            let task = try downloader.resume(blobAt: directory + "/device/silent.resumedata", partialFile: partial, to: directory + "/out.bin")
            let state = await task.result()
            try await downloader.shutdown()
            await silent.stop()
            guard case .failed = state else {
                Issue.record("expected a failure, got \(state)")
                return
            }
            #expect(counter.copies == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device"])
            #expect(contents(partial) == data.prefix(Self.received))

            let again = CopyCounter()
            let (finished, _) = try await Self.resume(blob, partial: partial, in: directory, counter: again)
            #expect(finished == .completed)
            #expect(contents(directory + "/out.bin") == data)
        }
    }

    /// A copy that fails (EIO from the kernel's copy) fails the run with the call and the file,
    /// and the run's partial file, holding nothing but the input's bytes, goes with it.
    @Test func aFailedCopyFailsTheRunAndLeavesNothing() async throws {
        let data = testData(count: 1 << 20, seed: 98)
        try await withServer(data) { server, _, directory in
            let (blob, partial) = try await Self.device(data, count: Self.received, server: server, in: directory)
            let counter = CopyCounter(failing: EIO)
            let (state, _) = try await Self.resume(blob, partial: partial, in: directory, counter: counter)
            #expect(state == .failed(.disk("copy_file_range \(directory)/out.bin.part: \(String(cString: strerror(EIO)))")))
            #expect(counter.copies == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device"])
            #expect(contents(partial) == data.prefix(Self.received))
        }
    }
}
