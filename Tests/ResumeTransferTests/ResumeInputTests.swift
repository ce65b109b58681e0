#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `resume` treats the partial file it is given as an input: it finishes the download from a
/// copy and leaves the file byte for byte, inode and time as they were, also on another file
/// system than the output; `--consume-partial` keeps the old move for whoever wants it.
@Suite struct ResumeInputTests {
    static let received = 300_000
    static let partialName = "CFNetworkDownload_Input1.tmp"

    /// What `stat` says of a file that must not change: bytes, inode, size, modification time, mode.
    struct Identity: Equatable {
        var data: Data?
        var inode: UInt64
        var size: Int64
        var modified: Int
        var modifiedNanoseconds: Int
        var mode: UInt32

        init(_ path: String) {
            var info = stat()
            _ = lstat(path, &info)
            data = FileManager.default.contents(atPath: path)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim.tv_sec
            modifiedNanoseconds = info.st_mtim.tv_nsec
            mode = UInt32(info.st_mode)
        }
    }

    /// A device's partial file (the first ``received`` bytes) in a folder of its own on tmpfs,
    /// another file system than the test folder, and a blob for it rebuilt as a device would
    /// have it.
    static func device(_ data: Data, server: TestServer, in directory: String) async throws -> (folder: String, partial: String) {
        let folder = "/dev/shm/resume-input-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let partial = folder + "/" + Self.partialName
        try data.prefix(Self.received).write(to: URL(fileURLWithPath: partial))
        let rebuilt = try await runToolCapturing(
            ["rebuild", "--from", partial, "--url", server.url, "--etag", "\"v1-\(data.count)\"", "-o", "device.resumedata"], in: directory)
        #expect(rebuilt == ToolResult(status: 0, stdout: "", stderr: ""))
        return (folder, partial)
    }

    @Test func thePartialFileIsLeftAsItWasAcrossFileSystems() async throws {
        let data = testData(count: 1 << 20, seed: 35)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = Identity(partial)
            let blob = Identity(directory + "/device.resumedata")
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(Self.received)-"])
            #expect(Identity(partial) == before)
            #expect(Identity(directory + "/device.resumedata") == blob)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device.resumedata", "out.bin"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [Self.partialName])
            // The output is the user's file: 0666 less the umask, as curl makes it.
            let mask = umask(0)
            umask(mask)
            #expect(Identity(directory + "/out.bin").mode & 0o777 == UInt32(0o666 & ~mask))
        }
    }

    @Test func aMissingOutputFolderFailsBeforeAnyRequest() async throws {
        let data = testData(count: 1 << 20, seed: 36)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = Identity(partial)
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "missing/out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(
                status: 1, stdout: "",
                stderr: "device.resumedata: error: file error: open missing/out.bin.part: No such file or directory\n"))
            #expect(server.getRequests.isEmpty)
            #expect(Identity(partial) == before)
        }
    }

    /// A finished download is renamed over its destination: a FIFO or device there would be
    /// replaced (for root, `-o /dev/full` made /dev/full a plain file), a folder fail at the end.
    /// Both are refused before any request, on `resume` and `download` alike.
    @Test func aFIFOOrAFolderAsTheOutputIsRefusedBeforeAnyRequest() async throws {
        let data = testData(count: 1 << 20, seed: 39)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(mkfifo(directory + "/pipe", 0o600) == 0)
            try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: false)
            for (output, kind) in [("pipe", "a FIFO"), ("folder", "a folder")] {
                let resumed = try await runToolCapturing(
                    ["resume", "device.resumedata", "--partial", partial, "-o", output, "--quiet"], in: directory)
                let refusal = "refusing \(output): it is \(kind), not a file a download can replace"
                #expect(resumed == ToolResult(status: 1, stdout: "", stderr: "\(output): error: \(refusal)\n"))
                let downloaded = try await runToolCapturing(["download", server.url, "-o", output, "--quiet"], in: directory)
                #expect(downloaded == ToolResult(status: 1, stdout: "", stderr: "\(output): error: \(refusal)\n"))
            }
            #expect(server.getRequests.isEmpty)
            var info = stat()
            #expect(lstat(directory + "/pipe", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device.resumedata", "folder", "pipe"])
        }
    }

    @Test func anEarlierRunsPartialFileIsContinuedNotOverwritten() async throws {
        let data = testData(count: 1 << 20, seed: 37)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data("an earlier run's bytes".utf8).write(to: URL(fileURLWithPath: directory + "/out.bin.part"))
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(
                status: 1, stdout: "",
                stderr: "device.resumedata: error: file error: out.bin.part exists (left by an earlier run?): "
                    + "continue it with its blob, out.bin.resume, or remove it\n"))
            #expect(contents(directory + "/out.bin.part") == Data("an earlier run's bytes".utf8))
            #expect(server.getRequests.isEmpty)
        }
    }

    /// A run killed (or failed) after copying the input and before its first checkpoint leaves a
    /// `.part` that begins with the input's bytes, cut short or with fetched bytes after them: the
    /// rerun makes the copy again and continues where the input ends.
    @Test(arguments: [1000, received, received + 70_000])
    func aCopyLeftWithoutItsCheckpointIsMadeAgain(_ left: Int) async throws {
        let data = testData(count: 1 << 20, seed: 39)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = Identity(partial)
            try data.prefix(left).write(to: URL(fileURLWithPath: directory + "/out.bin.part"))
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(Self.received)-"])
            #expect(Identity(partial) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device.resumedata", "out.bin"])
        }
    }

    /// A run stopped after a checkpoint: its own `.part` and `.resume` continue it, from where
    /// they are, not from the input again.
    @Test func anEarlierRunsCheckpointContinuesIt() async throws {
        let data = testData(count: 1 << 20, seed: 40)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let reached = 700_000
            try data.prefix(reached).write(to: URL(fileURLWithPath: directory + "/out.bin.part"))
            let rebuilt = try await runToolCapturing(
                ["rebuild", "--from", "out.bin.part", "--url", server.url, "--etag", "\"v1-\(data.count)\"", "-o", "out.bin.resume"], in: directory)
            #expect(rebuilt.status == 0)
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(reached)-"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device.resumedata", "out.bin"])
        }
    }

    /// A `.part` with another download's checkpoint beside it is that download's: left, and said.
    @Test func anotherDownloadsPartialFileAndCheckpointAreLeft() async throws {
        let data = testData(count: 1 << 20, seed: 41)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await Self.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try data.prefix(Self.received).write(to: URL(fileURLWithPath: directory + "/out.bin.part"))
            let rebuilt = try await runToolCapturing(
                ["rebuild", "--from", "out.bin.part", "--url", server.url + "?another", "--etag", "\"v1\"", "-o", "out.bin.resume"], in: directory)
            #expect(rebuilt.status == 0)
            let blob = contents(directory + "/out.bin.resume")
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(
                status: 1, stdout: "",
                stderr: "device.resumedata: error: file error: out.bin.part exists (left by an earlier run?): "
                    + "continue it with its blob, out.bin.resume, or remove it\n"))
            #expect(contents(directory + "/out.bin.part") == data.prefix(Self.received))
            #expect(contents(directory + "/out.bin.resume") == blob)
            #expect(server.getRequests.isEmpty)
        }
    }

    @Test func consumePartialMovesTheFileItself() async throws {
        let data = testData(count: 1 << 20, seed: 38)
        try await withServer(data) { server, _, directory in
            // Beside the output, on its file system: the move the flag asks for can be made.
            let partial = directory + "/" + Self.partialName
            try data.prefix(Self.received).write(to: URL(fileURLWithPath: partial))
            let rebuilt = try await runToolCapturing(
                ["rebuild", "--from", partial, "--url", server.url, "--etag", "\"v1-\(data.count)\"", "-o", "device.resumedata"], in: directory)
            #expect(rebuilt.status == 0)
            let inode = Identity(partial).inode
            let resumed = try await runToolCapturing(
                ["resume", "device.resumedata", "--consume-partial", "-o", "out.bin", "--quiet"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == data)
            #expect(!exists(partial))
            #expect(Identity(directory + "/out.bin").inode == inode)
        }
    }
}
