import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// `resumetool explain UPLOADBLOB --probe` through the built binary, against Apple's server and
/// scripted ones in this process: the offset request is the engine's own.
@Suite(.serialized) struct UploadExplainCommandTests {
    /// An upload blob for `resumeURL`, created at `requestURL` with `headers`, written as
    /// `folder/NAME`.
    static func writeBlob(
        _ name: String, resumeURL: String, requestURL: String, headers: [(name: String, value: String)] = [], in folder: String
    ) throws {
        let upload = try UploadResumeData.fileUpload(
            draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: resumeURL),
            requestURL: try HTTPURL(validating: requestURL), method: "POST", headers: headers, file: "/private/var/mobile/photo.bin")
        try upload.encoded().write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    static let unmasked = """
          [upload-unmasked] the blob is a plain keyed archive (it starts "bplist00", or is XML): URLSession XORs its first 8 bytes with a constant before reading, so a device will not read it as it is

        """

    /// An upload cut by the server after `kept` body bytes, which it keeps for the resume URL:
    /// explain says to continue at exactly that byte, and sends only the offset request.
    @Test func anUploadTheServerHasContinuesAtItsOffset() async throws {
        let cut = 300 << 10
        let server = try await AppleUploadServer.start(cuts: [cut])
        try await withTemporaryDirectory { folder in
            let size = 1 << 20
            _ = try UploadTesting.write(UploadTesting.bytes(size), in: folder)
            let url = server.origin + "/files/photo.bin"
            let first = try await runToolCapturing(["upload", "photo.bin", url, "--retries", "0", "--quiet"], in: folder)
            #expect(first.status == 1, "\(first)")
            let upload = try #require(try UploadCheckpoint(blobPath: folder + "/photo.bin.uploadresume").blob())
            let resumeURL = try #require(upload.resumeURL?.absoluteString)
            let kept = cut - (try #require(server.headLength(ofConnection: 0)))

            let run = try await runToolCapturing(["explain", "photo.bin.uploadresume", "--probe", "--file", "photo.bin"], in: folder)
            #expect(run == ToolResult(status: 0, stdout: """
                continue at byte \(kept) of the file
                checks:
                  pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
                  pass    resume-url: \(resumeURL)
                  pass    original-request: POST \(url)
                  pass    body: file \(URL(fileURLWithPath: folder + "/photo.bin").absoluteString)
                  pass    file: photo.bin has \(size) bytes (the blob cannot tell whether it is the device's file)
                  pass    server: HEAD \(resumeURL) → 204; Upload-Draft-Interop-Version: 6, Upload-Complete: ?0, Upload-Offset: \(kept)
                reasons:
                \(Self.unmasked)  [server-offset] the server has the first \(kept) bytes and waits for the rest, \(size - kept) to go
                    fix: resumetool resume photo.bin.uploadresume --file FILE

                """, stderr: ""))
            // One offset request, the draft's, and nothing appended.
            let heads = server.heads
            try #require(heads.count == 2)
            #expect(heads[1].hasPrefix("HEAD \(resumeURL.dropFirst(server.origin.count))\n"))
            #expect(heads[1].contains("Upload-Draft-Interop-Version: 6"))
            #expect(!heads[1].contains("Upload-Offset"))
            #expect(server.stored("/files/photo.bin")?.count == kept)

            // JSON: the same verdict, the server's offset as a number.
            let json = try await runToolCapturing(["explain", "photo.bin.uploadresume", "--probe", "--json"], in: folder)
            #expect(json.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["kind"] as? String == "upload")
            #expect(object["verdict"] as? String == "continue")
            #expect(object["offset"] as? Int == kept)
            #expect((object["server"] as? [String: Any])?["status"] as? Int == 204)
        }
        await server.stop()
    }

    /// A resume URL the server does not know: 404, restart with the whole file (exit 1).
    @Test func anUploadTheServerForgotRestarts() async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let resumeURL = server.origin + "/resumable_upload/0-0"
            try Self.writeBlob("app.uploadresume", resumeURL: resumeURL, requestURL: server.origin + "/files/photo.bin", in: folder)
            let run = try await runToolCapturing(["explain", "app.uploadresume", "--probe"], in: folder)
            #expect(run == ToolResult(status: 1, stdout: """
                restart from zero: the server no longer has the upload (HTTP 404)
                checks:
                  pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
                  pass    resume-url: \(resumeURL)
                  pass    original-request: POST \(server.origin)/files/photo.bin
                  pass    body: file file:///private/var/mobile/photo.bin
                  skipped file: give --file FILE to check the file to upload
                  fail    server: HEAD \(resumeURL) → 404; Upload-Draft-Interop-Version: 6
                reasons:
                \(Self.unmasked)  [upload-gone] the server answered 404 to the offset request: it no longer has the upload; resume creates it again with the original request and sends the whole file
                    fix: resumetool resume app.uploadresume --file FILE

                """, stderr: ""))
            #expect(server.heads.count == 1)
            #expect(server.heads.first?.hasPrefix("HEAD /resumable_upload/0-0\n") == true)
        }
        await server.stop()
    }

    /// Nobody listens at the resume URL: the verdict is the blob's alone, exit 3.
    @Test func aServerThatIsDownIsStatusThree() async throws {
        let server = try await RawServer.start([[.hold]], host: privateLoopbackAddress())
        let origin = server.origin
        await server.stop()
        try await withTemporaryDirectory { folder in
            try Self.writeBlob("app.uploadresume", resumeURL: origin + "/resumable_upload/1", requestURL: origin + "/files", in: folder)
            let run = try await runToolCapturing(["explain", "app.uploadresume", "--probe"], in: folder)
            #expect(run.status == 3)
            #expect(run.stderr == "")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "continue at the server's offset, as far as the blob tells: the server could not be asked")
            #expect(lines.contains { $0.hasPrefix("  unknown server: cannot ask the server: ") })
            #expect(lines.contains { $0.hasPrefix("  [probe-failed] the server could not be asked: ") })
        }
    }

    /// An upload begun over https with an http resume URL fails on the blob alone: nothing is
    /// sent (exit 1), and the fix names the edit.
    @Test func aDowngradeFailsWithoutARequest() async throws {
        let server = try await RawServer.start([[.text("HTTP/1.1 204 No Content\r\nUpload-Offset: 5\r\nUpload-Complete: ?0\r\n\r\n")]])
        try await withTemporaryDirectory { folder in
            let resumeURL = server.origin + "/resumable_upload/1"
            let requestURL = "https://\(server.host):\(server.port)/files"
            try Self.writeBlob("app.uploadresume", resumeURL: resumeURL, requestURL: requestURL, in: folder)
            let run = try await runToolCapturing(["explain", "app.uploadresume", "--probe"], in: folder)
            #expect(run == ToolResult(status: 1, stdout: """
                fail: a resume URL URLSession refuses
                checks:
                  pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
                  fail    resume-url: \(resumeURL)
                  pass    original-request: POST \(requestURL)
                  pass    body: file file:///private/var/mobile/photo.bin
                  skipped file: give --file FILE to check the file to upload
                  skipped server: not asked: the blob fails without it
                reasons:
                  [upload-resume-url] resumeURL: the upload began over https and would continue over http (\(resumeURL)): iOS 18.2 and later refuse the downgrade, and so does resumetool
                    fix: resumetool edit app.uploadresume --url NEW_URL
                \(Self.unmasked)
                """, stderr: ""))
            #expect(server.requests.isEmpty)
            // resume refuses it by the same judgement (``UploadContinuation``), before any request.
            _ = try UploadTesting.write(UploadTesting.bytes(100), in: folder)
            let resume = try await runToolCapturing(["resume", "app.uploadresume", "--file", "photo.bin", "--quiet"], in: folder)
            #expect(resume == ToolResult(status: 1, stdout: "", stderr: "app.uploadresume: error: resumeURL: the upload began over https and would continue over http (\(resumeURL)): iOS 18.2 and later refuse the downgrade, and so does resumetool\n"))
            #expect(server.requests.isEmpty)
        }
        await server.stop()
    }

    /// The blob's Authorization goes with the offset request only to the origin of the request
    /// that created the upload, as the engine sends it.
    @Test func credentialsGoOnlyToTheRequestsOrigin() async throws {
        let script: [RawServer.Step] = [.text("HTTP/1.1 204 No Content\r\nUpload-Offset: 5\r\nUpload-Complete: ?0\r\nContent-Length: 0\r\n\r\n")]
        let other = try await RawServer.start([script], host: privateLoopbackAddress())
        let same = try await RawServer.start([script], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let headers = [(name: "Authorization", value: "Bearer s3cret"), (name: "X-App", value: "1")]
            // Created on `same`'s origin, continued on `other`'s.
            try Self.writeBlob("away.uploadresume", resumeURL: other.origin + "/resumable_upload/1", requestURL: same.origin + "/files",
                               headers: headers, in: folder)
            let away = try await runToolCapturing(["explain", "away.uploadresume", "--probe"], in: folder)
            #expect(away.status == 0, "\(away)")
            #expect(away.stdout.hasPrefix("continue at byte 5 of the file\n"))
            let sentAway = try #require(other.requests.first)
            #expect(sentAway.hasPrefix("HEAD /resumable_upload/1 HTTP/1.1\r\n"))
            #expect(sentAway.contains("\r\nUpload-Draft-Interop-Version: 6"))
            #expect(sentAway.contains("\r\nX-App: 1"))
            #expect(!sentAway.lowercased().contains("authorization"))
            #expect(!sentAway.contains("s3cret"))

            // Continued on its own origin, the request's credentials go with it.
            try Self.writeBlob("home.uploadresume", resumeURL: same.origin + "/resumable_upload/2", requestURL: same.origin + "/files",
                               headers: headers, in: folder)
            let home = try await runToolCapturing(["explain", "home.uploadresume", "--probe"], in: folder)
            #expect(home.status == 0, "\(home)")
            let sentHome = try #require(same.requests.first)
            #expect(sentHome.contains("\r\nAuthorization: Bearer s3cret"))
        }
        await other.stop()
        await same.stop()
    }

    /// `--file`: a device's data body must be the file's very bytes; a missing file fails.
    @Test func theFileGivenIsCheckedAgainstTheBlobsBody() async throws {
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(4096)
            var upload = try UploadResumeData.fileUpload(
                draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: "http://127.0.0.1:9/resumable_upload/1"),
                requestURL: try HTTPURL(validating: "http://127.0.0.1:9/files"), method: "POST", headers: [], file: "/private/var/mobile/a.bin")
            upload.entries.removeAll { $0.key == UploadResumeKey.uploadFile }
            upload = upload.replacing(UploadResumeKey.bodyType, with: .integer(0)).replacing(UploadResumeKey.uploadData, with: .data(Data(bytes)))
            try upload.encoded().write(to: URL(fileURLWithPath: folder + "/data.uploadresume"))
            var other = bytes
            other[100] ^= 0xFF
            _ = try UploadTesting.write(other, in: folder, name: "other.bin")
            _ = try UploadTesting.write(bytes, in: folder, name: "body.bin")

            let differs = try await runToolCapturing(["explain", "data.uploadresume", "--file", "other.bin"], in: folder)
            #expect(differs.status == 1)
            #expect(differs.stdout.hasPrefix("fail: the file is not the upload's\n"))
            #expect(differs.stdout.contains("\n  fail    file: other.bin: the file's bytes are not the blob's body (uploadData, 4096 bytes)\n"))
            let missing = try await runToolCapturing(["explain", "data.uploadresume", "--file", "gone.bin"], in: folder)
            #expect(missing.status == 1)
            #expect(missing.stdout.contains("\n  fail    file: gone.bin: it does not exist\n"))
            let same = try await runToolCapturing(["explain", "data.uploadresume", "--file", "body.bin"], in: folder)
            #expect(same.status == 0)
            #expect(same.stdout.contains("\n  pass    file: body.bin has 4096 bytes, the blob's very body\n"))
        }
    }

    /// Download-only options are refused for an upload blob, and --file for a download blob.
    @Test func optionsOfTheOtherKindAreUsageErrors() async throws {
        try await withTemporaryDirectory { folder in
            try Self.writeBlob("app.uploadresume", resumeURL: "http://127.0.0.1:9/resumable_upload/1", requestURL: "http://127.0.0.1:9/files", in: folder)
            let partial = try await runToolCapturing(["explain", "app.uploadresume", "--partial", "x"], in: folder)
            #expect(partial == ToolResult(status: 64, stdout: "", stderr: "Error: --partial is for download blobs; app.uploadresume is upload resume data\n  See 'resumetool explain --help' for more information.\n"))
            try ExplainProbeTests.writeBlob(url: "http://127.0.0.1:9/f", entityTag: "\"a\"", lastModified: nil, in: folder)
            let file = try await runToolCapturing(["explain", "app.resumedata", "--file", "x"], in: folder)
            #expect(file == ToolResult(status: 64, stdout: "", stderr: "Error: --file is for upload blobs; app.resumedata is download resume data\n  See 'resumetool explain --help' for more information.\n"))
        }
    }
}
