import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

private let precious = Data("the only copy of my thesis".utf8)

/// The permission bits of `path`, without following a link.
private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

/// The numbered cases of the trust-boundary issue, each against a real HTTP server, most through
/// the built binary. Every one of them failed (or crashed) before the trust policy.
@Suite struct TrustBoundaryTests {
    /// 1. A blob whose LocalPath names a file outside its folder cannot touch that file: only
    /// its file name is looked for in the folder.
    @Test func aBlobCannotNameAFileOutsideItsFolder() async throws {
        try await withServer(oneMiB) { server, _, directory in
            try await withTemporaryDirectory { elsewhere in
                let victim = elsewhere + "/thesis.pdf"
                try precious.write(to: URL(fileURLWithPath: victim))
                var resume = ResumeData(container: .keyedArchive)
                resume.downloadURL = server.url
                resume.bytesReceived = Int64(precious.count)
                resume.localPath = victim
                // Another validator: the server answers 200, which used to truncate the victim.
                resume.entityTag = "\"another\""
                let blob = try resume.encoded(as: .keyedArchive)
                try blob.write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
                let result = try await runToolCapturing(["resume", "app.resumedata", "-o", "out.bin"], in: directory)
                #expect(result.status == 0)
                #expect(result.stderr.hasPrefix("""
                    out.bin: warning: no partial file named by the blob is in \(directory); starting from zero

                    """))
                #expect(contents(victim) == precious)
                #expect(contents(directory + "/out.bin") == oneMiB)

                // The same blob left for `recover`.
                try blob.write(to: URL(fileURLWithPath: directory + "/again.bin.resume"))
                let recovered = try await runToolCapturing(["recover", ".", "--quiet"], in: directory)
                #expect(recovered == ToolResult(status: 0, stdout: "", stderr: ""))
                #expect(contents(victim) == precious)
                #expect(contents(directory + "/again.bin") == oneMiB)
            }
        }
    }

    /// 1. A partial file that is a symbolic link is refused, not followed.
    @Test func aSymlinkedPartialFileIsRefused() async throws {
        try await withServer(oneMiB) { server, _, directory in
            try await withTemporaryDirectory { elsewhere in
                let victim = elsewhere + "/thesis.pdf"
                try precious.write(to: URL(fileURLWithPath: victim))
                try FileManager.default.createSymbolicLink(atPath: directory + "/out.bin.part", withDestinationPath: victim)
                let result = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--quiet"], in: directory)
                #expect(result == ToolResult(status: 1, stdout: "", stderr: "out.bin: error: refusing out.bin.part: it is a symbolic link\n"))
                #expect(contents(victim) == precious)
                #expect(!exists(directory + "/out.bin"))
                #expect(server.getRequests.isEmpty)

                // A blob naming a link beside it is refused the same way.
                try FileManager.default.createSymbolicLink(atPath: directory + "/CFNetworkDownload_x.tmp", withDestinationPath: victim)
                var resume = ResumeData(container: .keyedArchive)
                resume.downloadURL = server.url
                resume.bytesReceived = 5
                resume.tempFileName = "CFNetworkDownload_x.tmp"
                resume.entityTag = server.file.etag
                try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
                let resumed = try await runToolCapturing(["resume", "app.resumedata", "-o", "other.bin", "--quiet"], in: directory)
                #expect(resumed.status == 1)
                #expect(resumed.stderr == "app.resumedata: error: refusing \(directory)/CFNetworkDownload_x.tmp: it is a symbolic link, not a regular file\n")
                #expect(contents(victim) == precious)
            }
        }
    }

    /// 2. Credentials from the caller or from a blob never reach another origin.
    @Test func credentialsStayWithTheirOriginAcrossRedirects() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let other = try await TestServer.start(serving: oneMiB)
            server.script([.status(302, [("Location", other.url)])])
            let task = downloader.download(
                from: server.url, to: directory + "/out.bin",
                headers: fields(["Authorization": "Bearer secret", "Cookie": "id=1", "Proxy-Authorization": "Basic cDpx", "User-Agent": "UA/1"]))
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(server.getRequests.first?.headers["authorization"] == "Bearer secret")
            let moved = try #require(other.getRequests.first)
            #expect(moved.headers["authorization"] == nil)
            #expect(moved.headers["cookie"] == nil)
            #expect(moved.headers["proxy-authorization"] == nil)
            #expect(moved.headers["user-agent"] == "UA/1")

            // A device blob whose requests carry a token, through the binary: the redirect target gets none.
            server.script([.status(302, [("Location", other.url)])])
            var resume = ResumeData(container: .keyedArchive)
            resume.bytesReceived = 0
            resume.tempFileName = "CFNetworkDownload_y.tmp"
            let request = URLRequestArchive(url: try #require(URL(string: server.url)), headers: [(name: "Authorization", value: "Bearer blob")])
            try resume.setRequest(request, .current)
            try resume.setRequest(request, .original)
            try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
            let result = try await runToolCapturing(["resume", "app.resumedata", "-o", "blob.bin", "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(server.getRequests.last?.headers["authorization"] == "Bearer blob")
            #expect(other.getRequests.count == 2)
            #expect(other.getRequests.last?.headers["authorization"] == nil)
            await other.stop()
        }
    }

    /// 3. A Content-Range at the end of 64 bits is an error, not a crash.
    @Test func aHostileContentRangeIsAnErrorNotACrash() async throws {
        try await withServer(oneMiB) { server, _, directory in
            let hostile = [("Content-Range", "bytes 0-9223372036854775807/*")]
            server.script([.status(206, hostile), .status(206, hostile)])
            let result = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--quiet"], in: directory)
            #expect(result == ToolResult(
                status: 1, stdout: "", stderr: "out.bin: error: the server sent a Content-Range that does not match the request\n"))
            #expect(!exists(directory + "/out.bin"))
        }
    }

    /// 4. A server that ignores Range and always closes early cannot keep the engine forever.
    @Test func aRangeIgnoringTruncatingServerRunsOutOfRetries() async throws {
        let file = testData(count: 4000, seed: 9)
        try await withServer(file) { server, downloader, directory in
            server.script(Array(repeating: .ignoreRangeAndDropAfter(1000), count: 50))
            let task = downloader.download(from: server.url, to: directory + "/out.bin")
            let state = await task.result()
            guard case .failed(.retriesExhausted(_, attempts: 3)) = state else {
                Issue.record("unexpected \(state)")
                return
            }
            #expect(server.getRequests.count == 4)
            // What stays on disk is valid: the blob counts no more than the file holds, and those are the right bytes.
            let blob = try ResumeCheckpoint.decode(try #require(contents(directory + "/out.bin.resume")))
            let part = try #require(contents(directory + "/out.bin.part"))
            let counted = Int(blob.checkpoint.bytesReceived)
            #expect(counted <= part.count)
            #expect(part.prefix(counted) == file.prefix(counted))
        }
    }

    /// 5. `download URL` with a blob for another URL starts over for URL, and says so.
    @Test func aBlobForAnotherURLIsSetAside() async throws {
        try await withServer(oneMiB) { server, _, directory in
            let otherURL = "http://127.0.0.1:9/other.bin"
            let leftover = DownloadCheckpoint(originalURL: otherURL, currentURL: otherURL, bytesReceived: 1000, entityTag: server.file.etag)
            try ResumeCheckpoint.encode(leftover, partialPath: directory + "/out.bin.part")
                .write(to: URL(fileURLWithPath: directory + "/out.bin.resume"))
            try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: directory + "/out.bin.part"))
            let result = try await runToolCapturing(["download", server.url, "-o", "out.bin"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr.hasPrefix("out.bin: warning: out.bin.resume is for \(otherURL), not \(server.url); starting over\n"))
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil])
        }
    }

    /// 6. A lone partial file is compared with the server's bytes before anything is appended.
    @Test func aLonePartialFileIsProvedBeforeItIsContinued() async throws {
        try await withServer(oneMiB) { server, _, directory in
            // Bytes of another file: they used to be spliced in front of the server's after a HEAD.
            try otherMiB.prefix(300_000).write(to: URL(fileURLWithPath: directory + "/a.bin.part"))
            let first = try await runToolCapturing(["download", server.url, "-o", "a.bin"], in: directory)
            #expect(first.status == 0)
            #expect(first.stderr.contains("a.bin: the server's file is not the partial one; starting over\n"))
            #expect(contents(directory + "/a.bin") == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=234464-", nil])
            #expect(server.requests.allSatisfy { $0.method == "GET" })

            // A real prefix goes on after 64 KiB of overlap were compared.
            try oneMiB.prefix(300_000).write(to: URL(fileURLWithPath: directory + "/b.bin.part"))
            let second = try await runToolCapturing(["download", server.url, "-o", "b.bin", "--quiet"], in: directory)
            #expect(second == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/b.bin") == oneMiB)
            #expect(server.getRequests.count == 3)
            #expect(server.getRequests.last?.headers["range"] == "bytes=234464-")
            #expect(server.getRequests.last?.headers["if-range"] == nil)
        }
    }

    /// 7 and 8. `recover` continues with the checksum and headers the download was started with;
    /// blobs are the owner's alone (they hold the credentials), the partial file has a payload's mode.
    @Test func recoverKeepsEveryOptionAndFilesArePrivate() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.throttle(bytesPerSecond: 4 << 20)
            server.holdBack(100_000)
            let wrong = String(repeating: "0", count: 64)
            let task = downloader.download(
                from: server.url, to: directory + "/out.bin", expectedSHA256: wrong,
                headers: fields(["Authorization": "Bearer secret"]))
            try await waitForSize(directory + "/out.bin.part", oneMiB.count - 100_000)
            _ = await task.pause()
            server.holdBack(0)
            server.throttle(bytesPerSecond: nil)
            #expect(mode(directory + "/out.bin.resume") == 0o600)
            // The partial file is the user's payload: 0666 less the umask, as curl makes it.
            let mask = umask(0)
            umask(mask)
            #expect(mode(directory + "/out.bin.part") == 0o666 & ~mask)
            let blob = try ResumeCheckpoint.decode(try #require(contents(directory + "/out.bin.resume")))
            #expect(blob.checkpoint.expectedSHA256 == wrong)

            let result = try await runToolCapturing(["recover", ".", "--quiet"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr == "./out.bin: error: SHA-256 mismatch: expected \(wrong), got \(sha256Hex(oneMiB))\n")
            let last = try #require(server.getRequests.last)
            #expect(last.headers["authorization"] == "Bearer secret")
            #expect(last.headers["range"] == "bytes=\(oneMiB.count - 100_000)-")
            #expect(!exists(directory + "/out.bin"))

            // Blobs the CLI writes are private too.
            try ResumeCheckpoint.encode(blob.checkpoint, partialPath: directory + "/x.part")
                .write(to: URL(fileURLWithPath: directory + "/x.resume"))
            let converted = try await runToolCapturing(["convert", "x.resume", "--to", "xml", "-o", "x.plist"], in: directory)
            #expect(converted.status == 0)
            #expect(mode(directory + "/x.plist") == 0o600)
        }
    }
}
