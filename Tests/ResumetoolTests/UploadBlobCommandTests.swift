import Foundation
@testable import ResumeDataCodec
@testable import ResumeReports
import Testing

/// Upload resume data through the built binary: `inspect`, `validate`, `explain`, `edit` and `convert` read
/// it, every command that works on download blobs only refuses it by name.
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
        ["repair", "--target", "modern", "-o", "OUT"], ["relocate", "--temp-file", "x.tmp", "-o", "OUT"],
        ["discard"],
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
        #expect(result.stderr.contains("upload resume data (a URLSession upload task's, draft 5): \(command[0]) works on download resume data; inspect, validate, explain, edit and convert read upload blobs, and resume --file continues them"), "\(result.stderr)")
        #expect(try Data(contentsOf: blob) == before)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `explain` without `--probe`: the blob's verdict alone, each key URLSession reads as a check.
    @Test func explainGivesTheBlobsVerdictWithoutTheServer() throws {
        let file = try ToolRunner.run(["explain", Self.path("upload-file-v6")])
        #expect(file.status == 0)
        #expect(file.stderr == "")
        #expect(file.stdout == """
            continue at the server's offset (the blob holds none: --probe asks the server)
            checks:
              pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
              pass    resume-url: https://uploads.example.com/resumable_upload/8c0f4e2a-51d7
              pass    original-request: POST https://uploads.example.com/photos
              pass    body: file file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic
              skipped file: give --file FILE to check the file to upload
              skipped server: the blob holds no offset, only the server knows it: --probe asks it

            """)

        let refused = Self.path("upload-refused")
        let result = try ToolRunner.run(["explain", refused])
        #expect(result.status == 1)
        #expect(result.stdout == """
            fail: an interop version URLSession refuses; a resume URL URLSession refuses; no body to send
            checks:
              fail    draft-version: 99
              fail    resume-url: file:///etc/passwd
              pass    original-request: POST https://uploads.example.com/photos
              fail    body: file (no URL in the blob)
              skipped file: give --file FILE to check the file to upload
              skipped server: the blob holds no offset, only the server knows it: --probe asks it
            reasons:
              [upload-draft-version] draftVersion: "99" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it
              [upload-resume-url] resumeURL: "file:///etc/passwd" is not an absolute http or https URL: its scheme is "file": URLSession refuses it
                fix: resumetool edit \(refused) --url NEW_URL
              [upload-body] uploadFile: the body is a file (1) but the blob has no uploadFile URL: URLSession refuses it
                fix: resumetool edit \(refused) --upload-file PATH

            """)
        // Nothing is sent for a blob that fails on its own, so --probe changes nothing but the check.
        let probed = try ToolRunner.run(["explain", refused, "--probe", "--json"])
        #expect(probed.status == 1)
        #expect(probed.stdout.contains("""
                {
                  "code": "server",
                  "outcome": "skipped",
                  "message": "not asked: the blob fails without it"
                }
            """))
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

/// `edit` and `convert` on upload resume data through the built binary: the output keeps what
/// was not asked to change (the mask first), other tools read the plain archive, and what the
/// blob cannot take writes nothing.
@Suite struct UploadBlobEditAndConvertTests {
    static let movedResumeURL = "https://eu.uploads.example.com/resumable_upload/9"

    /// A copy of a fixture in a fresh folder, so the test can check that the input stays as it was.
    static func copy(_ name: String, into folder: TemporaryDirectory) throws -> String {
        let path = folder.path(name + ".resumedata")
        try FileManager.default.copyItem(atPath: UploadBlobCommandTests.path(name), toPath: path)
        return path
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func editURLKeepsTheMaskAndInspectShowsTheNewResumeURL() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let before = try Self.bytes(blob)
        let result = try ToolRunner.run(["edit", blob, "--url", Self.movedResumeURL, "-o", folder.path("out.resumedata")])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
        let output = try Self.bytes(folder.path("out.resumedata"))
        #expect(output.prefix(8) == before.prefix(8))
        #expect(try Self.bytes(blob) == before)

        let inspected = try ToolRunner.run(["inspect", "--json", folder.path("out.resumedata")])
        #expect(inspected.status == 0)
        let report = try EndToEnd.onlyReport(inspected.stdout)
        #expect(report["kind"] as? String == "upload")
        #expect(report["resumeURL"] as? String == Self.movedResumeURL)
        #expect(report["mask"] as? String == "525546482d6d6b21")
        let request = try #require(report["originalRequest"] as? [String: Any])
        #expect(request["url"] as? String == "https://uploads.example.com/photos")
        // The request's credentials stay with its own origin, which validate notes.
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["upload-resume-url"])
        #expect(findings.map { $0["severity"] as? String } == ["note"])
    }

    @Test func aRequestURLOnAnotherOriginDropsTheCredentialsWithANote() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let output = folder.path("out.resumedata")
        let result = try ToolRunner.run(["edit", blob, "--request-url", "https://eu.uploads.example.com/photos",
                                         "--header", "X-Trace: 7", "--remove-header", "user-agent", "-o", output])
        #expect(result.status == 0)
        #expect(result.stderr == "\(blob): note: the request URL's new origin (https://eu.uploads.example.com:443) differs from the old one: dropped Authorization from the original request; give them again with --header to keep them\n")
        let inspected = try ToolRunner.run(["inspect", output])
        #expect(inspected.stdout.contains("""
              original request:   POST https://eu.uploads.example.com/photos
                secure layout, timeout 60 s, cache policy 0 (useProtocolCachePolicy), body none
                Content-Type: image/heic
                X-Trace: 7
              findings:
            """), "\(inspected.stdout)")
    }

    @Test func anUploadFileGivenRelativeIsTheCurrentFoldersFile() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let result = try ToolRunner.run(["edit", blob, "--upload-file", "IMG 0043.heic", "-o", "out.resumedata"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let report = try EndToEnd.onlyReport(try ToolRunner.run(["inspect", "--json", folder.path("out.resumedata")]).stdout)
        let body = try #require(report["body"] as? [String: Any])
        #expect(body["url"] as? String == URL(fileURLWithPath: folder.path("IMG 0043.heic"), isDirectory: false).absoluteString)
    }

    @Test func aBadHeaderIsAUsageErrorAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let result = try ToolRunner.run(["edit", blob, "--header", "Bad Name: x", "-o", folder.path("out.resumedata")])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --header: 'Bad Name' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)\n"), "\(result.stderr)")
        #expect(!folder.exists("out.resumedata"))
    }

    @Test func aHeaderForABlobWithoutItsRequestFailsAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-taskinfo-v6", into: folder)
        let before = try Self.bytes(blob)
        let result = try ToolRunner.run(["edit", blob, "--header", "X-Trace: 7", "-o", folder.path("out.resumedata")])
        #expect(result.status == 1)
        #expect(result.stderr == "\(blob): error: the blob has no originalRequest (nsurlsessiond's own copy keeps none): there is no request whose URL or headers could change\n")
        #expect(!folder.exists("out.resumedata"))
        #expect(try Self.bytes(blob) == before)
    }

    @Test func anUploadFileForADataBodyFailsAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-data-v5", into: folder)
        let result = try ToolRunner.run(["edit", blob, "--upload-file", "/tmp/a.bin", "-o", folder.path("out.resumedata")])
        #expect(result.status == 1)
        #expect(result.stderr == "\(blob): error: the body is data (bodyType 0), not a file (bodyType 1): there is no uploadFile to change\n")
        #expect(!folder.exists("out.resumedata"))
    }

    @Test func uploadOptionsForADownloadBlobAreAUsageError() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("ios12-keyed-archive.resumedata")
        let result = try ToolRunner.run(["edit", blob, "--request-url", "https://example.com/a", "-o", folder.path("out")])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: --request-url is for upload blobs; \(blob) is download resume data\n  See 'resumetool edit --help' for more information.\n")
        #expect(!folder.exists("out"))
    }

    /// What plistlib finds in each file: the archiver, the top key and the root dictionary's
    /// keys, taken apart through `$top`, `NS.keys` and `$objects` by hand.
    static let plistlibScript = #"""
        import json, plistlib, sys

        def index(reference):
            if isinstance(reference, dict) and list(reference) == ["CF$UID"]: return reference["CF$UID"]
            return reference.data

        result = []
        for path in sys.argv[1:]:
            with open(path, "rb") as file:
                top = plistlib.load(file)
            objects = top["$objects"]
            (top_key, root_uid), = top["$top"].items()
            root = objects[index(root_uid)]
            keys = [objects[index(uid)] for uid in root["NS.keys"]]
            result.append([top["$archiver"], top_key, keys])
        print(json.dumps(result))
        """#

    @Test func convertWritesThePlainArchiveThatPlistlibReads() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let before = try Self.bytes(blob)
        for container in ["keyed-archive", "keyed-archive-xml"] {
            let result = try ToolRunner.run(["convert", blob, "--to", container, "-o", folder.path(container)])
            #expect(result.status == 0)
            #expect(result.stderr == "")
        }
        #expect(try Self.bytes(folder.path("keyed-archive")).prefix(8) == Data("bplist00".utf8))
        #expect(try Self.bytes(folder.path("keyed-archive-xml")).starts(with: Data("<?xml".utf8)))
        #expect(try Self.bytes(blob) == before)

        let python = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", Self.plistlibScript, folder.path("keyed-archive"), folder.path("keyed-archive-xml")])
        #expect(String(decoding: python.stderr, as: UTF8.self) == "")
        #expect(python.status == 0)
        let seen = try #require(try JSONSerialization.jsonObject(with: python.stdout) as? [[Any]])
        let keys = ["draftVersion", "resumeURL", "originalRequest", "bodyType", "uploadFile"]
        #expect(seen.count == 2)
        for row in seen {
            #expect(row.first as? String == "NSKeyedArchiver")
            #expect(row.dropFirst().first as? String == "root")
            #expect(row.last as? [String] == keys)
        }
    }

    @Test(arguments: ["xml", "binary", "nwurlsession", "nwurlsession-webkit"])
    func anotherContainerIsRefusedAndNamesTheTwo(_ container: String) throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let result = try ToolRunner.run(["convert", blob, "--to", container, "-o", folder.path("out")])
        #expect(result.status == 1)
        #expect(result.stderr == "\(blob): error: upload resume data cannot be written as \(container): an upload blob is written as keyed-archive or keyed-archive-xml\n")
        #expect(!folder.exists("out"))
    }

    @Test func maskFromGivesBackTheBlob() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let plain = folder.path("plain.archive")
        #expect(try ToolRunner.run(["convert", blob, "--to", "keyed-archive", "-o", plain]).status == 0)
        #expect(try Self.bytes(plain).prefix(8) == Data("bplist00".utf8))
        let masked = folder.path("masked.resumedata")
        let result = try ToolRunner.run(["convert", plain, "--to", "keyed-archive", "--mask-from", blob, "-o", masked])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // The fixture is plistlib's bytes, not this writer's: the mask and every value come back.
        #expect(try Self.bytes(masked).prefix(8) == (try Self.bytes(blob)).prefix(8))
        let inspectOriginal = try ToolRunner.run(["inspect", "upload-file-v6.resumedata"], in: folder.url)
        let inspectMasked = try ToolRunner.run(["inspect", "masked.resumedata"], in: folder.url)
        #expect(inspectMasked.stdout == inspectOriginal.stdout.replacingOccurrences(of: "upload-file-v6.resumedata:", with: "masked.resumedata:"))
        #expect(inspectMasked.stdout.contains("  mask:               525546482d6d6b21\n"))
        // Through this writer alone the round trip is byte for byte.
        let rewritten = folder.path("rewritten.resumedata")
        #expect(try ToolRunner.run(["edit", blob, "--url", "https://uploads.example.com/resumable_upload/8c0f4e2a-51d7", "-o", rewritten]).status == 0)
        #expect(try Self.bytes(masked) == (try Self.bytes(rewritten)))
        // The XML archive, edited by hand say, comes back the same way.
        let xml = folder.path("plain.xml")
        #expect(try ToolRunner.run(["convert", blob, "--to", "keyed-archive-xml", "-o", xml]).status == 0)
        let fromXML = folder.path("from-xml.resumedata")
        let again = try ToolRunner.run(["convert", xml, "--to", "keyed-archive", "--mask-from", blob, "-o", fromXML])
        #expect(again.status == 0)
        #expect(again.stderr == "")
        #expect(try Self.bytes(fromXML) == (try Self.bytes(rewritten)))
    }

    @Test func maskFromTakesOnlyAMaskedUploadBlob() throws {
        let folder = try TemporaryDirectory()
        let blob = try Self.copy("upload-file-v6", into: folder)
        let download = try folder.copySample("ios12-keyed-archive.resumedata")
        let fromDownload = try ToolRunner.run(["convert", blob, "--to", "keyed-archive", "--mask-from", download, "-o", folder.path("out")])
        #expect(fromDownload.status == 2)
        #expect(fromDownload.stderr == "\(download): error: --mask-from: download resume data, not an upload blob: only an upload blob carries the mask a device reads upload blobs with\n")
        let plain = folder.path("plain.archive")
        #expect(try ToolRunner.run(["convert", blob, "--to", "keyed-archive", "-o", plain]).status == 0)
        let fromPlain = try ToolRunner.run(["convert", blob, "--to", "keyed-archive", "--mask-from", plain, "-o", folder.path("out")])
        #expect(fromPlain.status == 2)
        #expect(fromPlain.stderr == "\(plain): error: --mask-from: an unmasked upload blob (it starts \"bplist00\"): take the mask from a blob a device wrote\n")
        let xml = try ToolRunner.run(["convert", blob, "--to", "keyed-archive-xml", "--mask-from", blob, "-o", folder.path("out")])
        #expect(xml.status == 64)
        #expect(xml.stderr.hasPrefix("Error: --mask-from masks a binary keyed archive: give it with --to keyed-archive\n"), "\(xml.stderr)")
        let downloadInput = try ToolRunner.run(["convert", download, "--to", "keyed-archive", "--mask-from", blob, "-o", folder.path("out")])
        #expect(downloadInput.status == 64)
        #expect(downloadInput.stderr == "Error: --mask-from is for upload blobs; \(download) is download resume data\n  See 'resumetool convert --help' for more information.\n")
        let trim = try ToolRunner.run(["convert", blob, "--to", "keyed-archive", "--trim-partial", folder.path("partial"), "-o", folder.path("out")])
        #expect(trim.status == 64)
        #expect(trim.stderr == "Error: --trim-partial is for segmented download blobs; \(blob) is upload resume data\n  See 'resumetool convert --help' for more information.\n")
        #expect(!folder.exists("out"))
    }
}
