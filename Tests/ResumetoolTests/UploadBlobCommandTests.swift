import Foundation
@testable import ResumeDataCodec
@testable import ResumeReports
import Testing

/// Upload resume data through the built binary: `inspect` and `validate` read it, every command
/// that works on download blobs refuses it by name.
@Suite struct UploadBlobCommandTests {
    static let folder = EndToEnd.fixtures.appendingPathComponent("upload")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name + ".resumedata").path }

    @Test func inspectShowsAFileUpload() throws {
        let path = Self.path("upload-file-v6")
        let result = try ToolRunner.run(["inspect", path])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            \(path):
              kind:               upload (URLSession upload task)
              draft version:      6 (as iOS 18.1 and later, macOS 15.1 and later write it)
              resume URL:         https://uploads.example.com/resumable_upload/8c0f4e2a-51d7
              body:               file file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic
              mask:               525546482d6d6b21
              original request:   POST https://uploads.example.com/photos
                secure layout, timeout 60 s, cache policy 0 (useProtocolCachePolicy), body none
                Content-Type: image/heic
                Authorization: Bearer s3cr3t-t0k3n
                User-Agent: Photos/1 CFNetwork/3826.400.120 Darwin/24.3.0
              findings:           none

            """)
    }

    @Test func inspectJSONSaysWhatKindAndBody() throws {
        let result = try ToolRunner.run(["inspect", "--json", Self.path("upload-stream-v3"), Self.path("upload-taskinfo-v6")])
        #expect(result.status == 0)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 2)
        let stream = reports[0]
        #expect(stream["kind"] as? String == "upload")
        #expect(stream["draftVersion"] as? String == "3")
        #expect(stream["resumeURL"] as? String == "https://uploads.example.com/resumable_upload/8c0f4e2a-51d7")
        #expect(stream["bodyType"] as? Int == 2)
        #expect(stream["body"] as? [String: Int] == nil)
        let body = try #require(stream["body"] as? [String: Any])
        #expect(body["type"] as? String == "stream")
        #expect(body["length"] as? Int == 123_456_789)
        #expect(stream["mask"] as? String == "525546482d6d6b21")
        #expect((stream["originalRequest"] as? [String: Any])?["method"] as? String == "POST")
        #expect((stream["findings"] as? [Any])?.isEmpty == true)
        let taskInfo = reports[1]
        #expect(taskInfo["originalRequest"] is NSNull)
        let findings = try #require(taskInfo["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["upload-request-missing"])
    }

    @Test func validateExitsOneOnWhatURLSessionRefuses() throws {
        let good = try ToolRunner.run(["validate", Self.path("upload-file-v6")])
        #expect(good.status == 0)
        #expect(good.stdout == "\(Self.path("upload-file-v6")): ok\n")
        let refused = try ToolRunner.run(["validate", Self.path("upload-refused")])
        #expect(refused.status == 1)
        let name = Self.path("upload-refused")
        #expect(refused.stdout == """
            \(name): error: draftVersion: "99" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it [upload-draft-version]
            \(name): error: resumeURL: "file:///etc/passwd" is not an absolute http or https URL: its scheme is "file": URLSession refuses it [upload-resume-url]
            \(name): error: uploadFile: the body is a file (1) but the blob has no uploadFile URL: URLSession refuses it [upload-body]

            """)
    }

    @Test(arguments: [
        ["convert", "--to", "xml", "-o", "OUT"], ["repair", "--target", "modern", "-o", "OUT"],
        ["edit", "--url", "https://example.com/a", "-o", "OUT"], ["relocate", "--temp-file", "x.tmp", "-o", "OUT"],
        ["discard"], ["explain"],
    ])
    func downloadCommandsRefuseAnUploadBlobByName(_ command: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blob = folder.appendingPathComponent("task.resumedata")
        try FileManager.default.copyItem(atPath: Self.path("upload-data-v5"), toPath: blob.path)
        let before = try Data(contentsOf: blob)
        let output = folder.appendingPathComponent("out").path
        let result = try ToolRunner.run([command[0], blob.path] + command.dropFirst().map { $0 == "OUT" ? output : $0 })
        #expect(result.status == 2)
        #expect(result.stderr.contains("upload resume data (a URLSession upload task's, draft 5): \(command[0]) works on download resume data; inspect and validate read upload blobs, and resume --file continues them"), "\(result.stderr)")
        #expect(try Data(contentsOf: blob) == before)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func resumeAsksForTheFileOfAnUploadBlob() throws {
        let folder = try TemporaryDirectory()
        let result = try EndToEnd.run(["resume", Self.path("upload-data-v5"), "-o", folder.path("out.bin")], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr == "Error: \(Self.path("upload-data-v5")) is upload resume data: give the file to upload with --file FILE\n  See 'resumetool resume --help' for more information.\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.bin")))
    }

    /// A blob may hold any count: the smallest one is shown, not trapped on (abs(Int64.min)).
    @Test func theSmallestStreamLengthIsShown() {
        let upload = UploadResumeData(entries: [
            .init(key: "draftVersion", value: .string("6")), .init(key: "bodyType", value: .integer(2)),
            .init(key: "streamLength", value: .integer(PropertyListInteger(Int64.min))),
        ], mask: Array("RUFH-mk!".utf8))
        let report = UploadInspectReport(name: "x", upload: upload, findings: [])
        #expect(report.text.contains("  body:               stream of -9,223,372,036,854,775,808 bytes (-8.0 EiB)\n"))
    }
}

/// `scan` finds upload blobs by content, whatever their mask, and tells them from download blobs.
@Suite struct ScanFindsUploadBlobsTests {
    @Test func uploadBlobsAreFoundWithTheirResumeURLAndFindings() throws {
        let folder = try TemporaryDirectory()
        let caches = folder.url.appendingPathComponent("Library/Caches")
        try FileManager.default.createDirectory(at: caches, withIntermediateDirectories: true)
        for name in ["upload-file-v6", "upload-data-v5"] {
            // Names that say nothing: scan goes by content.
            try FileManager.default.copyItem(atPath: UploadBlobCommandTests.path(name), toPath: caches.appendingPathComponent(name + ".bin").path)
        }
        try FileManager.default.copyItem(at: EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata"),
                                         to: folder.url.appendingPathComponent("download.resumedata"))
        let result = try EndToEnd.run(["scan", "."], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("""
              Library/Caches/upload-file-v6.bin
                container:        upload
                draft version:    6
                resume URL:       https://uploads.example.com/resumable_upload/8c0f4e2a-51d7
                body:             file file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic
                partial file:     -
            """), "\(result.stdout)")
        #expect(result.stdout.contains("    body:             data, 1,000 bytes in the blob\n"))
        #expect(result.stdout.hasSuffix("3 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"))

        let json = try EndToEnd.run(["scan", "--json", "."], in: folder.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let blobs = try #require(document["blobs"] as? [[String: Any]])
        // In path order: Library/… sorts before download.resumedata.
        #expect(blobs.map { $0["container"] as? String } == ["upload", "upload", "keyed-archive"])
        #expect(blobs[2]["upload"] == nil)
        let upload = try #require(blobs[0]["upload"] as? [String: Any])
        #expect(upload["draftVersion"] as? String == "5")
        #expect(upload["mask"] as? String == "5465644c6173736f")
        #expect((blobs[0]["findings"] as? [[String: Any]])?.map { $0["code"] as? String } == ["upload-draft-version"])
        #expect((blobs[1]["upload"] as? [String: Any])?["draftVersion"] as? String == "6")
        #expect((blobs[1]["findings"] as? [Any])?.isEmpty == true)
    }
}
