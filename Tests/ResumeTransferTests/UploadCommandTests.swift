import Crypto
import Foundation
@testable import ResumeDataCodec
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import ResumeTransfer

/// `resumetool upload` and `resumetool resume UPLOADBLOB --file` through the built binary,
/// against Apple's server in this process.
@Suite(.serialized) struct UploadCommandTests {
    @Test func uploadSendsTheFileAndLeavesNothingBehind() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(2 << 20)
            _ = try UploadTesting.write(bytes, in: folder)
            let url = server.origin + "/files/photo.bin"
            let run = try await runToolCapturing(["upload", "photo.bin", url, "--draft", "5"], in: folder)
            #expect(run == ToolResult(status: 0, stdout: "", stderr: "photo.bin: uploaded to \(url) (HTTP 201, 2097152 bytes sent)\n"))
            #expect(server.stored("/files/photo.bin") == bytes)
            #expect(server.heads.first?.contains("Upload-Draft-Interop-Version: 5") == true)
            #expect(!FileManager.default.fileExists(atPath: folder + "/photo.bin.uploadresume"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/photo.bin.uploadresume.identity"))
        }
        await server.stop()
    }

    /// Killed with SIGKILL mid-body, then the same command (and `resume BLOB --file`) continues.
    @Test(arguments: [false, true])
    func killNineThenTheSameCommandContinues(throughResume: Bool) async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let size = 8 << 20
            let bytes = UploadTesting.bytes(size)
            _ = try UploadTesting.write(bytes, in: folder)
            let url = server.origin + "/files/photo.bin"
            let blob = folder + "/photo.bin.uploadresume"
            let killed = try await runToolCapturing(
                ["upload", "photo.bin", url, "--limit-rate", "2M", "--quiet"], in: folder, after: .milliseconds(300),
                when: { FileManager.default.fileExists(atPath: blob) && (server.stored("/files/photo.bin")?.count ?? 0) > 0 })
            #expect(killed.status == nil)
            let upload = try #require(try UploadCheckpoint(blobPath: blob).blob())
            let resumeURL = try #require(upload.resumeURL?.absoluteString)
            #expect(resumeURL.hasPrefix(server.origin + "/resumable_upload/"))
            let had = server.stored("/files/photo.bin")?.count ?? 0
            #expect(had > 0 && had < size)

            let arguments = throughResume ? ["resume", "photo.bin.uploadresume", "--file", "photo.bin"] : ["upload", "photo.bin", url]
            let run = try await runToolCapturing(arguments, in: folder)
            #expect(run.status == 0)
            #expect(run.stderr.hasPrefix("photo.bin: continuing the upload at \(resumeURL)\nphoto.bin: uploaded to \(url) (HTTP 201, "))
            #expect(run.stderr.hasSuffix(" of \(size) bytes sent in this run, continued 1 time)\n"), Comment(rawValue: run.stderr))
            #expect(server.stored("/files/photo.bin") == bytes)
            let heads = server.heads
            try #require(heads.count == 3)
            #expect(heads[1].hasPrefix("HEAD "))
            #expect(heads[2].hasPrefix("PATCH "))
            let offset = try #require(heads[2].split(separator: "\n").first { $0.hasPrefix("Upload-Offset: ") }.flatMap { Int($0.dropFirst(15)) })
            #expect(offset >= had)
            #expect(heads[2].contains("Content-Length: \(size - offset)\n") || heads[2].hasSuffix("Content-Length: \(size - offset)"))
            #expect(!FileManager.default.fileExists(atPath: blob))
            #expect(!FileManager.default.fileExists(atPath: blob + ".identity"))
        }
        await server.stop()
    }

    /// Ctrl-C or SIGTERM pauses an upload as it does a download: status 130 or 143, a line that
    /// says so and how to go on, the checkpoint kept; the same command then continues.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalPausesAndTheSameCommandContinues(signal: Int32, status: Int32) async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(8 << 20)
            _ = try UploadTesting.write(bytes, in: folder)
            let url = server.origin + "/files/photo.bin"
            let blob = folder + "/photo.bin.uploadresume"
            let paused = try await runToolCapturing(
                ["upload", "photo.bin", url, "--limit-rate", "1M"], in: folder, signal: signal, after: .milliseconds(100),
                when: { FileManager.default.fileExists(atPath: blob) })
            #expect(paused.status == status, Comment(rawValue: paused.stderr))
            #expect(paused.stderr.hasSuffix("photo.bin: paused; continue with: the same command again\n"), Comment(rawValue: paused.stderr))
            #expect(FileManager.default.fileExists(atPath: blob))
            #expect(FileManager.default.fileExists(atPath: blob + ".identity"))
            let run = try await runToolCapturing(["upload", "photo.bin", url, "--quiet"], in: folder)
            #expect(run == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(server.stored("/files/photo.bin") == bytes)
            #expect(!FileManager.default.fileExists(atPath: blob))
        }
        await server.stop()
    }

    /// `resume BLOB --file` reads the blob once: the command's check and the run use that one
    /// reading (`strace` counts the opens of the blob's path), and the upload finishes.
    @Test func resumeReadsTheBlobOnce() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let (bytes, _, blob) = try await Self.uploadKilledOnceItsCheckpointExists(to: server, in: folder)
            let run = try await runToolCapturing(
                ["resume", blob, "--file", "photo.bin", "--quiet"], in: folder,
                shell: "strace -f -qq -e trace=open,openat -P \(blob) -o \(folder)/trace.txt \"$TOOL\"")
            #expect(run.status == 0, Comment(rawValue: run.stderr))
            #expect(server.stored("/files/photo.bin") == bytes)
            let opens = try String(contentsOfFile: folder + "/trace.txt", encoding: .utf8).split(separator: "\n")
            #expect(opens.count == 1, Comment(rawValue: opens.joined(separator: "\n")))
        }
        await server.stop()
    }

    /// `upload` of an 8 MiB `photo.bin` in `folder` at 1 MiB/s, SIGKILLed 100 ms after its
    /// checkpoint appears: the file's bytes, the upload's URL and the checkpoint's path.
    static func uploadKilledOnceItsCheckpointExists(
        to server: AppleUploadServer, in folder: String
    ) async throws -> (bytes: [UInt8], url: String, blob: String) {
        let bytes = UploadTesting.bytes(8 << 20)
        _ = try UploadTesting.write(bytes, in: folder)
        let url = server.origin + "/files/photo.bin"
        let blob = folder + "/photo.bin.uploadresume"
        let killed = try await runToolCapturing(
            ["upload", "photo.bin", url, "--limit-rate", "1M", "--quiet"], in: folder, after: .milliseconds(100),
            when: { FileManager.default.fileExists(atPath: blob) })
        #expect(killed.status == nil)
        return (bytes, url, blob)
    }

    @Test func aFileChangedAfterAKillIsRefusedWithStatusOne() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let (bytes, url, blob) = try await Self.uploadKilledOnceItsCheckpointExists(to: server, in: folder)
            let size = bytes.count
            _ = try UploadTesting.write(bytes + [1, 2, 3], in: folder)
            let run = try await runToolCapturing(["upload", "photo.bin", url], in: folder)
            #expect(run == ToolResult(
                status: 1, stdout: "",
                stderr: "photo.bin: error: the file changed: photo.bin: its size is \(size + 3) bytes, it was \(size) when the upload started\n"
                    + "to upload the file as it is now: remove photo.bin.uploadresume and photo.bin.uploadresume.identity, then run the same command again\n"))
            // Nothing was sent, and the checkpoint stays for the original file.
            #expect(server.heads.count == 1)
            #expect(FileManager.default.fileExists(atPath: blob))
            // The way out it names uploads the file as it is now.
            try FileManager.default.removeItem(atPath: blob)
            try FileManager.default.removeItem(atPath: blob + ".identity")
            let again = try await runToolCapturing(["upload", "photo.bin", url, "--quiet"], in: folder)
            #expect(again == ToolResult(status: 0, stdout: "", stderr: ""))
            // A new upload (POST) of the whole file; the test server's record of a path adds
            // each upload's bytes to the last, so the new file is what it ends with.
            #expect(server.heads.last?.hasPrefix("POST ") == true)
            let stored = server.stored("/files/photo.bin") ?? []
            let endsWithTheNewFile = Array(stored.suffix(size + 3)) == bytes + [1, 2, 3]
            #expect(endsWithTheNewFile, "stored \(stored.count) bytes")
        }
        await server.stop()
    }

    /// A file cut short while it is sent (to 1 MiB, once the server has some of it): the read
    /// past its new end stops the run with status 1 and the checkpoint stays.
    @Test func aFileCutShortWhileItIsSentIsRefused() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let size = 8 << 20
            let file = try UploadTesting.write(UploadTesting.bytes(size), in: folder)
            let url = server.origin + "/files/photo.bin"
            let run = try await runToolCapturing(
                ["upload", "photo.bin", url, "--limit-rate", "1M"], in: folder,
                // No signal: the wait for the server's first bytes is where the file is cut.
                when: {
                    guard (server.stored("/files/photo.bin")?.count ?? 0) > 0 else { return false }
                    return truncate(file, 1 << 20) == 0
                })
            #expect(run == ToolResult(
                status: 1, stdout: "",
                stderr: "photo.bin: error: the file changed: photo.bin ends at byte 1048576, it had \(size) bytes when the upload started\n"
                    + "to upload the file as it is now: remove photo.bin.uploadresume and photo.bin.uploadresume.identity, then run the same command again\n"))
            #expect(FileManager.default.fileExists(atPath: folder + "/photo.bin.uploadresume"))
        }
        await server.stop()
    }

    /// The body is read a MiB at a time and each write awaited: a 128 MiB upload stays below the
    /// 64 MiB bound (`/usr/bin/time`'s maximum resident size of the process; about 51 MiB in a
    /// debug build, of which the binary's own start-up is most).
    @Test func aLargeUploadHoldsBoundedMemory() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let block = UploadTesting.bytes(1 << 20)
            var file = Data(capacity: 128 << 20)
            for index in 0..<128 {
                var numbered = block
                numbered[0] = UInt8(index)
                file.append(contentsOf: numbered)
            }
            try file.write(to: URL(fileURLWithPath: folder + "/big.bin"))
            let url = server.origin + "/files/big.bin"
            let run = try await runToolCapturing(["upload", "big.bin", url], in: folder, shell: "/usr/bin/time -f 'maxrss=%M' \"$TOOL\"")
            #expect(run.status == 0)
            let kilobytes = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) })
            #expect(kilobytes < 64 * 1024, "peak resident size \(kilobytes) KiB")
            let stored = try #require(server.stored("/files/big.bin"))
            #expect(stored.count == file.count)
            #expect(Data(SHA256.hash(data: stored)) == Data(SHA256.hash(data: file)))
        }
        await server.stop()
    }

    @Test func resumeOfAnUploadBlobNeedsTheFileAndRefusesDownloadOptions() async throws {
        try await withTemporaryDirectory { folder in
            let upload = try UploadResumeData.fileUpload(
                draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: "http://127.0.0.1:9/resumable_upload/1"),
                requestURL: try HTTPURL(validating: "http://127.0.0.1:9/files"), method: "POST", headers: [], file: folder + "/a.bin")
            try upload.encoded().write(to: URL(fileURLWithPath: folder + "/a.uploadresume"))
            let noFile = try await runToolCapturing(["resume", "a.uploadresume"], in: folder)
            #expect(noFile == ToolResult(status: 64, stdout: "", stderr: "Error: a.uploadresume is upload resume data: give the file to upload with --file FILE\n  See 'resumetool resume --help' for more information.\n"))
            let partial = try await runToolCapturing(["resume", "a.uploadresume", "--file", "a.bin", "-o", "x"], in: folder)
            #expect(partial == ToolResult(status: 64, stdout: "", stderr: "Error: -o is for download blobs; a.uploadresume is upload resume data\n  See 'resumetool resume --help' for more information.\n"))
            let missing = try await runToolCapturing(["resume", "a.uploadresume", "--file", "a.bin"], in: folder)
            #expect(missing.status == 2)
            #expect(missing.stderr.hasPrefix("a.bin: error: cannot read the file: a.bin: "))
        }
    }
    /// A device's blob of a data or stream upload has no identity record, but its body tells:
    /// a file that is not the body is refused before anything is sent; the very bytes of a data
    /// body are continued without the warning that the file cannot be checked.
    @Test func aDeviceBlobsBodyChecksTheFile() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(4096)
            let made = try UploadResumeData.fileUpload(
                draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: server.origin + "/resumable_upload/404"),
                requestURL: try HTTPURL(validating: server.origin + "/files/body.bin"), method: "POST", headers: [], file: "/private/var/mobile/a.bin")
            func blob(_ body: ArchivedValue, key: String, type: PropertyListInteger) throws -> String {
                var upload = made
                upload.entries.removeAll { $0.key == UploadResumeKey.uploadFile }
                upload = upload.replacing(UploadResumeKey.bodyType, with: .integer(type)).replacing(key, with: body)
                let path = folder + "/device-\(key).resumedata"
                try upload.encoded().write(to: URL(fileURLWithPath: path))
                return path
            }
            let data = try blob(.data(Data(bytes)), key: UploadResumeKey.uploadData, type: 0)
            let stream = try blob(.integer(4000), key: UploadResumeKey.streamLength, type: 2)
            var other = bytes
            other[100] ^= 0xFF
            try Data(other).write(to: URL(fileURLWithPath: folder + "/other.bin"))
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/body.bin"))

            let differs = try await runToolCapturing(["resume", data, "--file", "other.bin"], in: folder)
            #expect(differs == ToolResult(status: 1, stdout: "", stderr: "other.bin: error: the file changed: other.bin: the file's bytes are not the blob's body (uploadData, 4096 bytes)\n"
                + "to upload the file as it is now: resumetool upload other.bin \(server.origin)/files/body.bin\n"))
            let length = try await runToolCapturing(["resume", stream, "--file", "body.bin"], in: folder)
            #expect(length == ToolResult(status: 1, stdout: "", stderr: "body.bin: error: the file changed: body.bin: the file has 4096 bytes, and the blob's stream (streamLength) had 4000\n"
                + "to upload the file as it is now: resumetool upload body.bin \(server.origin)/files/body.bin\n"))
            #expect(server.stored("/files/body.bin") == nil)
            // The device's blobs are inputs: left as they were.
            #expect(FileManager.default.fileExists(atPath: data) && FileManager.default.fileExists(atPath: stream))

            let same = try await runToolCapturing(["resume", data, "--file", "body.bin"], in: folder)
            #expect(same.status == 0, "\(same.stderr)")
            #expect(!same.stderr.contains("cannot be proven"))
            #expect(server.stored("/files/body.bin") == bytes)
        }
        await server.stop()
    }

    /// nsurlsessiond's copy of a blob has no original request: `resume` continues it at its resume
    /// URL (the origin -H's credentials go to) while the server has the upload, and says why it
    /// stops once the server has forgotten it, with nothing to create it again.
    @Test func aBlobWithoutItsRequestContinuesWhileTheServerHasTheUpload() async throws {
        let (kept, size) = (1000, 4096)
        let server = try await RawServer.start([
            [.text("HTTP/1.1 204 No Content\r\nUpload-Draft-Interop-Version: 6\r\nUpload-Offset: \(kept)\r\nUpload-Complete: ?0\r\n\r\n")],
            [.drain(size - kept), .text("HTTP/1.1 201 Created\r\nUpload-Complete: ?1\r\nUpload-Offset: \(size)\r\nContent-Length: 0\r\n\r\n")],
            [.text("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(size)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/body.bin"))
            var upload = try UploadResumeData.fileUpload(
                draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: server.origin + "/up/1"),
                requestURL: try HTTPURL(validating: "http://elsewhere.invalid/files"), method: "POST", headers: [], file: "/private/var/mobile/a.bin")
            upload.entries.removeAll { $0.key == UploadResumeKey.originalRequest }
            try upload.encoded().write(to: URL(fileURLWithPath: folder + "/device.resumedata"))

            let run = try await runToolCapturing(["resume", "device.resumedata", "--file", "body.bin", "-H", "Authorization: Bearer t0ken"], in: folder)
            let story = Comment(rawValue: "\(run.stderr)\nserver:\n\(server.journal)")
            #expect(run.status == 0, story)
            #expect(run.stderr.hasSuffix("body.bin: uploaded to \(server.origin)/up/1 (HTTP 201, \(size - kept) of \(size) bytes sent in this run, continued 1 time)\n"), story)
            let requests = server.requests
            try #require(requests.count == 2, story)
            #expect(requests[0].hasPrefix("HEAD /up/1 HTTP/1.1\r\n"))
            #expect(requests[1].hasPrefix("PATCH /up/1 HTTP/1.1\r\n"))
            // The resume URL is the only origin there is: the credentials given go there.
            #expect(requests.allSatisfy { $0.contains("Authorization: Bearer t0ken\r\n") })
            #expect(server.body(ofConnection: 1) == Array(bytes[kept...]))

            let forgotten = try await runToolCapturing(["resume", "device.resumedata", "--file", "body.bin"], in: folder)
            #expect(forgotten.status == 1)
            #expect(forgotten.stderr.hasSuffix(
                "body.bin: error: the server no longer has the upload (HTTP 404), and the blob has no original request to create it again\n"),
                Comment(rawValue: forgotten.stderr))
            // Nothing was sent anywhere else, and no hint to run it again.
            #expect(server.requests.count == 3)
            #expect(server.requests[2].hasPrefix("HEAD /up/1 HTTP/1.1\r\n"))
            #expect(!forgotten.stderr.contains("continue with"))
        }
        await server.stop()
    }

    @Test func aFileBeyondTheServersLimitIsStatusOneWithBothSizes() async throws {
        let server = try await RawServer.start([
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\nUpload-Limit: max-size=1000\r\n\r\n"), .hold],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(4096), in: folder)
            let run = try await runToolCapturing(["upload", "photo.bin", "\(server.origin)/files"], in: folder)
            #expect(run == ToolResult(
                status: 1, stdout: "", stderr: "photo.bin: error: the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 4096\n"))
            // No resume URL was taken from the refusing 104; no hint to run it again.
            #expect(!FileManager.default.fileExists(atPath: folder + "/photo.bin.uploadresume"))
            #expect(server.requests.count == 1)
        }
        await server.stop()
    }
    /// A final answer that claims one byte more than the file: status 1, the checkpoint kept
    /// for a later run, no "uploaded".
    @Test func aFinalAnswerClaimingMoreThanTheFileIsStatusOne() async throws {
        let size = 4096
        let server = try await RawServer.start([
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\n\r\n"), .drain(size),
             .text("HTTP/1.1 201 Created\r\nUpload-Complete: ?1\r\nUpload-Offset: \(size + 1)\r\nContent-Length: 0\r\n\r\n")],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(size), in: folder)
            let run = try await runToolCapturing(["upload", "photo.bin", "\(server.origin)/files", "--quiet"], in: folder)
            #expect(run.status == 1, Comment(rawValue: run.stderr))
            #expect(run.stderr.hasPrefix("photo.bin: error: the server says the upload is complete at 4097 bytes, but the file has 4096\n"), Comment(rawValue: run.stderr))
            #expect(!run.stderr.contains("uploaded"))
            #expect(FileManager.default.fileExists(atPath: folder + "/photo.bin.uploadresume"))
            #expect(server.requests.count == 1)
        }
        await server.stop()
    }

    @Test func verboseShowsEveryHeadWithTheCredentialMasked() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(4096), in: folder)
            let url = server.origin + "/files/photo.bin"
            let run = try await runToolCapturing(["upload", "photo.bin", url, "-v", "-H", "Authorization: Bearer s3cret"], in: folder)
            #expect(run.status == 0)
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for expected in [
                "> POST \(url)", "> Host: \(url.dropFirst(7).prefix { $0 != "/" })", "> Authorization: Bearer <hidden>",
                "> Upload-Draft-Interop-Version: 6", "> Upload-Complete: ?1", "> Content-Length: 4096", "> Connection: close",
                "< 104", "< 201",
            ] {
                #expect(lines.contains(expected), "missing \(expected)")
            }
            #expect(lines.contains { $0.hasPrefix("< Location: \(server.origin)/resumable_upload/") })
            #expect(lines.contains { $0.hasPrefix("photo.bin: resumable at \(server.origin)/resumable_upload/") })
            #expect(!run.stderr.contains("s3cret"))
            // In order: the request, the 104, the final answer.
            let order = ["> POST \(url)", "< 104", "< 201"].compactMap { lines.firstIndex(of: $0) }
            #expect(order == order.sorted() && order.count == 3)
        }
        await server.stop()
    }
}
