import Foundation
import Testing

@testable import ResumeTransfer

/// `upload - URL` through the built binary: standard input copied to a private folder under
/// TMPDIR, uploaded from there (resuming within the run after a cut connection), and the folder
/// removed whatever the outcome; the copy's read and write failures (`strace -e inject`) are
/// said with where they happened.
@Suite(.serialized) struct UploadStdinTests {
    static let size = 300_000

    /// What is left in `folder`: nothing, once the command has ended.
    static func leftovers(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? ["(unreadable)"]
    }

    @Test func standardInputIsUploadedAndResumesWithinTheRun() async throws {
        // The first connection is cut after 100,000 bytes: the rest goes from the copy.
        let server = try await AppleUploadServer.start(cuts: [100_000])
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            _ = try UploadTesting.write(bytes, in: folder)
            let tmp = folder + "/tmp"
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
            let url = server.origin + "/files/piped.bin"
            let run = try await runToolCapturing(["upload", "-", url], in: folder, shell: "cat photo.bin | \"$TOOL\"", environment: ["TMPDIR": tmp])
            #expect(run.status == 0, Comment(rawValue: run.stderr))
            #expect(server.stored("/files/piped.bin").map { $0 == bytes } == true)
            #expect(run.stderr.hasPrefix("<stdin>: uploaded to \(url) (HTTP "), Comment(rawValue: run.stderr))
            #expect(run.stderr.hasSuffix(", continued 1 time)\n"), Comment(rawValue: run.stderr))
            #expect(Self.leftovers(tmp).isEmpty)
            // Nothing is written beside anything the user has.
            #expect(Self.leftovers(folder).sorted() == ["photo.bin", "tmp"])
        }
        await server.stop()
    }

    /// A failed upload from standard input cannot be continued: no hint, and no folder left.
    @Test func aFailedUploadLeavesNothingAndGivesNoHint() async throws {
        let server = try await RawServer.start([
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\n\r\n"),
             .drain(Self.size), .text("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")],
        ])
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let tmp = folder + "/tmp"
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
            let run = try await runToolCapturing(
                ["upload", "-", server.origin + "/files", "--retries", "0"], in: folder, shell: "cat photo.bin | \"$TOOL\"", environment: ["TMPDIR": tmp])
            // The 104 named a resume URL, so a file's upload would say how to continue; this one cannot.
            #expect(run == ToolResult(status: 1, stdout: "", stderr: "<stdin>: error: the server answered HTTP 403\n"))
            #expect(!run.stderr.contains("continue with"))
            #expect(Self.leftovers(tmp).isEmpty)
        }
        await server.stop()
    }

    /// The copy's faults: a read of standard input that fails, and a full disk while copying.
    @Test func theCopysFaultsAreSaidAndTheFolderGoes() async throws {
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let tmp = folder + "/tmp"
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
            // Nothing listens there: the copy fails before any request is made.
            let url = "http://127.0.0.1:1/files"
            // Standard input is the file itself here, so that -P can name it: its first read fails.
            let unreadable = try await runToolCapturing(
                ["upload", "-", url], in: folder,
                shell: "\(StraceFaultTests.strace) -e trace=read -e inject=read:error=EIO:when=1 -P \(folder)/photo.bin \"$TOOL\" < photo.bin",
                environment: ["TMPDIR": tmp])
            #expect(unreadable.status == 1, Comment(rawValue: unreadable.stderr))
            #expect(unreadable == ToolResult(status: 1, stdout: "", stderr: "<stdin>: error: cannot read: Input/output error\n"))
            #expect(Self.leftovers(tmp).isEmpty)

            let full = try await runToolCapturing(
                ["upload", "-", url], in: folder,
                shell: "cat photo.bin | \(StraceFaultTests.strace) -e trace=write -e inject=write:error=ENOSPC:when=2 \"$TOOL\"",
                environment: ["TMPDIR": tmp])
            #expect(full.status == 1, Comment(rawValue: full.stderr))
            #expect(full.stderr.contains("<stdin>: error: cannot copy it to \(tmp)/resumetool-"), Comment(rawValue: full.stderr))
            // Which write of the process is the copy's first is the runtime's business: the count
            // before the failure is not pinned.
            #expect(full.stderr.contains(" bytes: No space left on device\n"), Comment(rawValue: full.stderr))
            #expect(Self.leftovers(tmp).isEmpty)
        }
    }
}
