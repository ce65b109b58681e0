import Foundation
import Testing

@testable import ResumeSystemCalls
@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

private let folder = "/disk"
private let destination = folder + "/f.bin"
private let served = testData(count: 200_000, seed: 21)

/// Power loss at every step, full disks and failing calls, through the engine's one file-system
/// seam (``FileSystemCalls``) with ``FakeFileSystem``, against the in-process server; and one
/// real full disk (a 1 MiB tmpfs) through the built binary.
@Suite(.serialized) struct FaultInjectionTests {
    private func configuration() -> DownloadConfiguration {
        var configuration = fastConfiguration(retries: 2)
        configuration.checkpointBytes = 16 << 10
        // Many writes, so that power loss and faults land between them too.
        configuration.writeBatchBytes = 8 << 10
        return configuration
    }

    /// One download with a fresh downloader on `fake`.
    private func download(_ server: TestServer, on fake: FakeFileSystem) async throws -> DownloadState {
        let downloader = Downloader(configuration: self.configuration(), calls: fake.calls)
        let task = downloader.download(from: server.url, to: destination)
        let state = await task.result()
        try await downloader.shutdown()
        return state
    }

    /// What must hold of any state the disk can be left in: a blob reads, claims only bytes the
    /// partial file holds, and those are the server's; a finished file is the server's.
    private func expectConsistent(_ fake: FakeFileSystem, _ context: String) throws {
        if let blob = fake.contents(destination + ".resume") {
            let claimed = Int(try ResumeCheckpoint.decode(blob).checkpoint.bytesReceived)
            let part = fake.contents(destination + ".part") ?? Data()
            #expect(claimed <= part.count, "\(context): the blob claims \(claimed) of \(part.count) bytes")
            #expect(part.prefix(claimed) == served.prefix(claimed), "\(context): claimed bytes differ from the server's")
        }
        if let done = fake.contents(destination) { #expect(done == served, "\(context): a wrong finished file") }
    }

    /// At every blob replacement, the bytes it claims were already durable (fsynced) then.
    private func expectBlobsFollowTheirBytes(_ fake: FakeFileSystem, _ context: String) throws {
        for (index, rename) in fake.blobRenames.enumerated() {
            let claimed = Int(try ResumeCheckpoint.decode(rename.blob).checkpoint.bytesReceived)
            let durable = rename.durable[destination + ".part"] ?? Data()
            #expect(claimed <= durable.count, "\(context): blob \(index) claims \(claimed), only \(durable.count) durable")
            #expect(durable.prefix(claimed) == served.prefix(claimed), "\(context): blob \(index) claims bytes that are not the server's")
        }
    }

    /// Visible names only: a crash can leave a temporary blob (`.f.bin.resume.tmp-…`) behind.
    private func visibleNames(_ fake: FakeFileSystem) -> [String] {
        fake.names(in: folder).filter { !$0.hasPrefix(".") }
    }

    @Test func powerLossAtEveryStepLeavesAStateTheNextRunFinishesByteIdentical() async throws {
        let server = try await TestServer.start(serving: served)
        let reference = FakeFileSystem(folders: [folder])
        #expect(try await self.download(server, on: reference) == .completed)
        #expect(reference.contents(destination) == served)
        try self.expectBlobsFollowTheirBytes(reference, "uninterrupted")
        let steps = reference.callCount
        #expect(steps > 40)
        for step in 0..<steps {
            let fake = FakeFileSystem(folders: [folder])
            fake.crash(after: step)
            _ = try await self.download(server, on: fake)
            try self.expectBlobsFollowTheirBytes(fake, "power lost after call \(step)")
            fake.powerLoss()
            try self.expectConsistent(fake, "power lost after call \(step)")
            let again = try await self.download(server, on: fake)
            #expect(again == .completed, "power lost after call \(step)")
            #expect(fake.contents(destination) == served, "power lost after call \(step)")
            #expect(self.visibleNames(fake) == ["f.bin"], "power lost after call \(step)")
        }
        await server.stop()
    }

    @Test(arguments: [
        (FakeFileSystem.Call.pwrite, 1, ENOSPC), (.pwrite, 4, ENOSPC), (.rename, 1, ENOSPC), (.rename, 3, EIO),
        (.fsync, 1, EIO), (.fsync, 3, EIO), (.ftruncate, 1, EIO), (.open, 2, ENOSPC), (.close, 1, EIO), (.rename, 1, EXDEV),
    ])
    func aFailingCallStopsWithAClearErrorAndTheNextRunFinishes(_ call: FakeFileSystem.Call, _ nth: Int, _ code: Int32) async throws {
        let server = try await TestServer.start(serving: served)
        let fake = FakeFileSystem(folders: [folder])
        fake.fail(call, nth: nth, with: code)
        let state = try await self.download(server, on: fake)
        let reason = String(cString: strerror(code))
        guard case .failed(.disk(let message)) = state, message.hasSuffix(reason) else {
            Issue.record("\(call) #\(nth) \(reason): ended \(state)")
            await server.stop()
            return
        }
        try self.expectConsistent(fake, "\(call) #\(nth)")
        try self.expectBlobsFollowTheirBytes(fake, "\(call) #\(nth)")
        // The same state after a power loss is as good.
        fake.powerLoss()
        try self.expectConsistent(fake, "\(call) #\(nth), then power lost")
        #expect(try await self.download(server, on: fake) == .completed, "\(call) #\(nth)")
        #expect(fake.contents(destination) == served)
        #expect(self.visibleNames(fake) == ["f.bin"])
        await server.stop()
    }

    /// A real file system that fills up: a 1 MiB tmpfs, mounted in a private mount namespace
    /// (as root, as CI runs, or as an unprivileged user through a user namespace), a 3 MiB
    /// download through the built binary, then room made and the same command run again.
    @Test func aRealFullDiskFailsCleanlyAndTheSameCommandFinishesOnceThereIsRoom() async throws {
        let data = testData(count: 3 << 20, seed: 22)
        try await withServer(data) { server, _, directory in
            let mountPoint = directory + "/disk"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            let script = """
                mount -t tmpfs -o size=1m tmpfs "$1" || { echo "cannot mount"; exit 90; }
                cd "$1" || exit 91
                "$TOOL" download "$2" -o out.bin --quiet 2>"$3"; echo "full $?"
                head -c 300 "$3" >&2
                mount -o remount,size=16m "$1" || exit 92
                "$TOOL" download "$2" -o out.bin --quiet; echo "room $?"
                sha256sum out.bin | cut -c1-64
                ls -A
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = (getuid() == 0 ? [] : ["--user", "--map-root-user"])
                + ["--mount", "/bin/sh", "-c", script, "sh", mountPoint, server.url, directory + "/err.txt"]
            process.environment = ["TOOL": try resumetoolBinary().path, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
            #expect(stdout == "full 1\nroom 0\n\(sha256Hex(data))\nout.bin\n")
            #expect(stderr.hasPrefix("out.bin: error: file error: "), "\(stderr)")
            #expect(stderr.contains("No space left on device"), "\(stderr)")
        }
    }

    /// The error message itself going to a file on the full disk: the tool still exits 1 (writing
    /// it used to trap in `FileHandle.write`).
    @Test func aFullDiskUnderStandardErrorIsNoCrash() async throws {
        try await withServer(testData(count: 3 << 20, seed: 23)) { server, _, directory in
            let mountPoint = directory + "/disk"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            let script = """
                mount -t tmpfs -o size=1m tmpfs "$1" || { echo "cannot mount"; exit 90; }
                cd "$1" || exit 91
                "$TOOL" download "$2" -o out.bin 2>err.txt; echo "status $?"
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = (getuid() == 0 ? [] : ["--user", "--map-root-user"])
                + ["--mount", "/bin/sh", "-c", script, "sh", mountPoint, server.url]
            process.environment = ["TOOL": try resumetoolBinary().path, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(stdout == "status 1\n")
        }
    }
}
