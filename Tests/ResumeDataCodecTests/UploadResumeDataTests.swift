import Foundation
@testable import ResumeDataCodec
import Testing

/// Upload resume data: the blobs of Fixtures/upload, written by Python's plistlib
/// (`make_upload_blobs.py`), read value by value; what is not one is left to the download reader;
/// hostile bytes never trap.
@Suite struct UploadResumeDataTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/upload")
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    static let names = ["upload-data-v5", "upload-downgrade", "upload-file-v6", "upload-refused", "upload-stream-v3", "upload-taskinfo-v6"]
    static let resumeURL = "https://uploads.example.com/resumable_upload/8c0f4e2a-51d7"
    static let fileURL = "file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic"
    /// The constant the generator masks with; the blob's first 8 bytes are it XOR `bplist00`.
    static let standInMask = Array("RUFH-mk!".utf8)

    static func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name + ".resumedata"))
    }

    static func read(_ name: String) throws -> UploadResumeData {
        try #require(try UploadResumeData.read(bytes(name)))
    }

    @Test func theFixturesAreWhatTheGeneratorWrites() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.folder.appendingPathComponent("make_upload_blobs.py").path, output.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in Self.names {
            let made = try Data(contentsOf: output.appendingPathComponent(name + ".resumedata"))
            #expect(made == (try Self.bytes(name)), "\(name) differs from the generator's output")
        }
    }

    /// The download reader, handed an upload blob, names the type that reads it.
    @Test(arguments: names)
    func theDownloadReaderNamesTheUploadReader(name: String) throws {
        let bytes = try Self.bytes(name)
        let error = try #require(throws: ResumeDataError.self) { _ = try ResumeData(data: bytes) }
        #expect(error.code == .notResumeData)
        #expect(error.reason == "upload resume data, not a download's: UploadResumeData.read(_:) reads it")
    }

    @Test func aFileBodyBlobReadsValueByValue() throws {
        let upload = try Self.read("upload-file-v6")
        #expect(upload.mask == Self.standInMask)
        #expect(upload.entries.map(\.key) == ["draftVersion", "resumeURL", "originalRequest", "bodyType", "uploadFile"])
        #expect(upload.draftVersion == "6")
        #expect(upload.resumeURL?.absoluteString == Self.resumeURL)
        #expect(upload.bodyType == 1)
        #expect(upload.body == .file(upload.resumeURL.map { _ in upload[UploadResumeKey.uploadFile]?.urlValue } ?? nil))
        #expect(upload[UploadResumeKey.uploadFile]?.urlValue?.absoluteString == Self.fileURL)
        let request = try #require(try upload.originalRequest())
        #expect(request.method == "POST")
        #expect(request.urlString == "https://uploads.example.com/photos")
        #expect(request.headers.map(\.name) == ["Content-Type", "Authorization", "User-Agent"])
        #expect(request.headers.first?.value == "image/heic")
        #expect(upload.otherEntries.isEmpty)
        #expect(UploadResumeDataValidator().findings(for: upload).isEmpty)
    }

    @Test func aDataBodyMaskedLikeTheNetworkFrameworksDownloadsIsStillAnUpload() throws {
        let bytes = try Self.bytes("upload-data-v5")
        #expect(Array(bytes.prefix(8)) == ResumeData.obscuredMagic)
        let upload = try #require(try UploadResumeData.read(bytes))
        #expect(upload.mask == Array("TedLasso".utf8))
        #expect(upload.draftVersion == "5")
        #expect(upload.body == .data(Data((0..<1000).map { UInt8(($0 * 37 + 11) % 256) })))
        let findings = UploadResumeDataValidator().findings(for: upload)
        #expect(findings.map(\.code) == [.uploadDraftVersion])
        #expect(findings.first?.severity == .warning)
    }

    @Test func aStreamBodyAndNsurlsessiondsCopy() throws {
        let stream = try Self.read("upload-stream-v3")
        #expect(stream.draftVersion == "3")
        #expect(stream.body == .stream(length: 123_456_789))
        let taskInfo = try Self.read("upload-taskinfo-v6")
        #expect(try taskInfo.originalRequest() == nil)
        #expect(UploadResumeDataValidator().findings(for: taskInfo).map(\.description) == [
            "warning[upload-request-missing] originalRequest: no original request, as in nsurlsessiond's own copy: uploadTask(withResumeData:) refuses such a blob, which cannot start the upload again either",
        ])
    }

    @Test func whatURLSessionRefusesIsAnError() throws {
        let findings = UploadResumeDataValidator().findings(for: try Self.read("upload-refused"))
        #expect(findings.map(\.description) == [
            "error[upload-draft-version] draftVersion: \"99\" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it",
            "error[upload-resume-url] resumeURL: \"file:///etc/passwd\" is not an absolute http or https URL: its scheme is \"file\": URLSession refuses it",
            "error[upload-body] uploadFile: the body is a file (1) but the blob has no uploadFile URL: URLSession refuses it",
        ])
        let downgrade = UploadResumeDataValidator().findings(for: try Self.read("upload-downgrade"))
        #expect(downgrade.map(\.code) == [.uploadResumeURL])
        #expect(downgrade.first?.severity == .error)
    }

    /// Every download sample, the Network framework's masked ones included, is left to
    /// ResumeData, which still reads it.
    @Test func noDownloadBlobIsTakenForAnUpload() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.samples.path).filter { !$0.hasPrefix(".") && $0 != "README.md" }
        #expect(names.count >= 10)
        for name in names {
            let bytes = try Data(contentsOf: Self.samples.appendingPathComponent(name))
            #expect(try UploadResumeData.read(bytes) == nil, "\(name)")
        }
    }

    @Test func anUnmaskedUploadIsReadAndSaidToBeUnmasked() throws {
        var bytes = try Self.bytes("upload-file-v6")
        bytes.replaceSubrange(0..<8, with: Array("bplist00".utf8))
        let upload = try #require(try UploadResumeData.read(bytes))
        #expect(upload.mask == [UInt8](repeating: 0, count: 8))
        #expect(UploadResumeDataValidator().findings(for: upload).map(\.code) == [.uploadUnmasked])
    }

    @Test func aBrokenMaskedUploadIsAnErrorWithItsPosition() throws {
        let bytes = try Self.bytes("upload-file-v6")
        // The trailer still fits, the offset table points nowhere: with a mask that is not the
        // Network framework's, only an upload blob looks so, so it is reported as one.
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let table = Int(bytes[(trailer + 24)..<(trailer + 32)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        var broken = bytes
        broken.replaceSubrange(table..<(table + offsetSize), with: [UInt8](repeating: 0xFF, count: offsetSize))
        let error = try #require(throws: ResumeDataError.self) { try UploadResumeData.read(broken) }
        #expect(error.code == .unreadable)
        #expect(error.locationDescription != nil)
        // Cut short, the trailer is gone: it may be anything, and the download reader says what.
        #expect(try UploadResumeData.read(Data(bytes.prefix(400))) == nil)
    }

    @Test func aMaskedArchiveOfSomethingElseIsNotResumeData() throws {
        let bytes = try Self.bytes("upload-file-v6")
        // The keys renamed, same length: a masked keyed archive holding no upload keys but
        // still mentioning resumeURL as a value is refused as such.
        var renamed = bytes
        for key in ["draftVersion", "bodyType"] {
            let range = try #require(renamed.firstRange(of: Array(key.utf8)))
            renamed.replaceSubrange(range, with: Array(String(repeating: "x", count: key.utf8.count).utf8))
        }
        let error = try #require(throws: ResumeDataError.self) { try UploadResumeData.read(renamed) }
        #expect(error.code == .notResumeData)
    }

    /// Every single-byte change of every fixture: read, left to the download reader (nil), or
    /// refused with a ``ResumeDataError`` of the documented kinds, never a trap or another error.
    /// Each outcome is counted: a fixture whose changes all read (or all fail) tests one path.
    @Test func everyByteChangedIsReadOrRefused() throws {
        for name in Self.names {
            let bytes = try Self.bytes(name)
            var (read, notUpload, refused) = (0, 0, 0)
            for index in bytes.indices {
                for value: UInt8 in [0x00, 0xFF, bytes[index] ^ 0x01] where value != bytes[index] {
                    var changed = bytes
                    changed[index] = value
                    do {
                        guard let upload = try UploadResumeData.read(changed) else {
                            notUpload += 1
                            continue
                        }
                        read += 1
                        _ = UploadResumeDataValidator().findings(for: upload)
                        do {
                            _ = try upload.originalRequest()
                        } catch is KeyedArchiveError {
                            // Documented: `originalRequest` is not a request archive.
                        } catch {
                            Issue.record("\(name)[\(index)] = \(value): originalRequest threw \(error)")
                        }
                    } catch let error as ResumeDataError {
                        refused += 1
                        #expect([.unreadable, .invalidArchive, .notResumeData].contains(error.code), "\(name)[\(index)] = \(value): \(error)")
                    } catch {
                        Issue.record("\(name)[\(index)] = \(value): not a ResumeDataError: \(error)")
                    }
                }
            }
            // A change inside a string or a number still reads; one in the trailer is refused;
            // one in the masked magic makes the bytes something other than an upload blob.
            #expect(read > 0, "\(name): no change read")
            if Array(bytes.prefix(8)) == ResumeData.obscuredMagic {
                // Masked with the Network framework's constant, a broken blob may be a download
                // blob: never refused as upload data, always left to the download reader.
                #expect(refused == 0, "\(name): \(refused) changes refused as upload data")
            } else {
                #expect(refused > 0, "\(name): no change was refused")
            }
            #expect(notUpload > 0, "\(name): no change left the bytes to the download reader")
        }
    }

    // MARK: The validator, value by value

    static func upload(_ entries: [(String, ArchivedValue)]) -> UploadResumeData {
        UploadResumeData(entries: entries.map { .init(key: $0.0, value: $0.1) }, mask: standInMask)
    }

    static let good: [(String, ArchivedValue)] = [
        ("draftVersion", .string("6")), ("resumeURL", .url(.init(relativeString: resumeURL))),
        ("bodyType", .integer(1)), ("uploadFile", .url(.init(relativeString: fileURL))),
    ]

    static func replacing(_ key: String, with value: ArchivedValue?) -> UploadResumeData {
        upload(good.compactMap { $0.0 == key ? value.map { (key, $0) } : $0 } + (good.contains { $0.0 == key } ? [] : value.map { [(key, $0)] } ?? []))
    }

    static func messages(_ upload: UploadResumeData) -> [String] {
        UploadResumeDataValidator().findings(for: upload).filter { $0.code != .uploadRequestMissing }.map(\.description)
    }

    @Test(arguments: [
        (ArchivedValue?.none, "error[upload-draft-version] draftVersion: missing: URLSession refuses a blob without the draft's interop version"),
        (.integer(6), "error[wrong-type] draftVersion: expected a string, found an integer"),
        (.string("06"), "error[upload-draft-version] draftVersion: \"06\" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it"),
        (.string("2"), "error[upload-draft-version] draftVersion: \"2\" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it"),
        (.string("6\u{202E}"), "error[upload-draft-version] draftVersion: \"6\\u{202e}\" is no interop version of the resumable-upload draft (3 to 8); URLSession refuses it"),
        (.string("8"), "warning[upload-draft-version] draftVersion: interop version 8 is newer than any Apple system is known to write (3, 5, 6): a device would likely refuse it, and Apple's server code speaks only 3, 5 and 6"),
    ])
    func draftVersions(_ value: ArchivedValue?, _ message: String) {
        #expect(Self.messages(Self.replacing("draftVersion", with: value)) == [message])
    }

    @Test func theVersionsAppleWritesAreClean() {
        for version in ["3", "6"] { #expect(Self.messages(Self.replacing("draftVersion", with: .string(version))) == []) }
        #expect(UploadDraftVersion("5")?.acceptedByCurrentSystems == false)
        #expect(UploadDraftVersion("7")?.appleSystems == nil)
        #expect(UploadDraftVersion("-6") == nil)
        #expect(UploadDraftVersion("999999999999999999999") == nil)
    }

    @Test(arguments: [
        (ArchivedValue?.none, "error[upload-resume-url] resumeURL: missing: there is nowhere to continue the upload"),
        (.string(resumeURL), "error[wrong-type] resumeURL: expected an NSURL, found a string"),
        (.url(.init(relativeString: "/resumable_upload/1")), "error[upload-resume-url] resumeURL: \"/resumable_upload/1\" is not an absolute http or https URL: it has no scheme: URLSession refuses it"),
        (.url(.init(relativeString: "ftp://uploads.example.com/1")), "warning[upload-resume-url] resumeURL: \"ftp://uploads.example.com/1\" is not an absolute http or https URL: its scheme is \"ftp\""),
    ])
    func resumeURLs(_ value: ArchivedValue?, _ message: String) {
        #expect(Self.messages(Self.replacing("resumeURL", with: value)) == [message])
    }

    @Test func aRelativeResumeURLResolvesAgainstItsBase() {
        let value = ArchivedValue.url(.init(relativeString: "/resumable_upload/1", baseString: "https://uploads.example.com/photos"))
        #expect(Self.messages(Self.replacing("resumeURL", with: value)) == [])
    }

    @Test(arguments: [
        ("bodyType", ArchivedValue?.none, "error[upload-body] bodyType: missing: URLSession refuses a blob that does not say where the body comes from"),
        ("bodyType", .integer(-1), "error[upload-body] bodyType: -1 is no body type (0 data, 1 file, 2 stream): URLSession refuses it"),
        ("bodyType", .string("1"), "error[wrong-type] bodyType: expected an integer, found a string"),
        ("bodyType", .integer(0), "error[upload-body] uploadData: the body is data (0) but the blob has no uploadData: URLSession refuses it"),
        ("bodyType", .integer(2), "note[upload-body] bodyType: a stream body of unknown length: the app must supply the stream again from the server's offset"),
        ("uploadFile", .none, "error[upload-body] uploadFile: the body is a file (1) but the blob has no uploadFile URL: URLSession refuses it"),
        ("uploadFile", .url(.init(relativeString: "https://example.com/a")), "error[upload-body] uploadFile: https://example.com/a is not a file: URL: a background session refuses it"),
    ])
    func bodies(_ key: String, _ value: ArchivedValue?, _ message: String) {
        #expect(Self.messages(Self.replacing(key, with: value)) == [message])
    }

    @Test func aStreamLengthOfInt64MinIsKeptNotTrapped() {
        let upload = Self.upload([("draftVersion", .string("6")), ("resumeURL", .url(.init(relativeString: Self.resumeURL))),
                                  ("bodyType", .integer(2)), ("streamLength", .integer(PropertyListInteger(Int64.min)))])
        #expect(upload.body == .stream(length: Int64.min))
    }

    /// A stream's length that no `Upload-Length` can carry is an error, as `resume` refuses it;
    /// the largest one RFC 9651 allows, and 0, are not.
    @Test(arguments: [
        (Int64(-5), ["error[upload-body] streamLength: -5 is no stream length: it is negative"]),
        (Int64.min, ["error[upload-body] streamLength: -9223372036854775808 is no stream length: it is negative"]),
        (Int64.max, ["error[upload-body] streamLength: 9223372036854775807 bytes cannot be uploaded: Upload-Length and Upload-Offset carry at most 999999999999999 (RFC 9651's largest integer)"]),
        (Int64(1_000_000_000_000_000), ["error[upload-body] streamLength: 1000000000000000 bytes cannot be uploaded: Upload-Length and Upload-Offset carry at most 999999999999999 (RFC 9651's largest integer)"]),
        (Int64(999_999_999_999_999), []),
        (Int64(0), []),
    ])
    func streamLengths(_ length: Int64, _ messages: [String]) {
        let upload = Self.upload([("draftVersion", .string("6")), ("resumeURL", .url(.init(relativeString: Self.resumeURL))),
                                  ("bodyType", .integer(2)), ("streamLength", .integer(PropertyListInteger(length)))])
        #expect(Self.messages(upload).filter { $0.contains("upload-body") } == messages)
    }
}

/// Writing upload resume data: the same entries and mask read back; an edit keeps the mask.
@Suite struct UploadResumeDataWritingTests {
    @Test(arguments: UploadResumeDataTests.names)
    func whatIsWrittenReadsBackTheSame(_ name: String) throws {
        let upload = try UploadResumeDataTests.read(name)
        let bytes = try upload.encoded()
        #expect(Array(bytes.prefix(8)) == zip(Array("bplist00".utf8), upload.mask).map { $0 ^ $1 })
        let again = try #require(try UploadResumeData.read(bytes))
        #expect(again == upload)
        #expect(try again.originalRequest() == (try upload.originalRequest()))
    }

    @Test func theUnmaskedArchiveIsAPlainKeyedArchive() throws {
        let upload = try UploadResumeDataTests.read("upload-file-v6")
        let plain = try upload.encoded(masked: false)
        #expect(plain.prefix(8) == Data("bplist00".utf8))
        let archive = try KeyedArchive(data: plain)
        #expect(archive.topKey == "root")
        let again = try #require(try UploadResumeData.read(plain))
        #expect(again.entries == upload.entries)
        #expect(again.mask == [UInt8](repeating: 0, count: 8))
    }

    @Test func aNewResumeURLKeepsTheMaskTheOrderAndTheRequest() throws {
        let upload = try UploadResumeDataTests.read("upload-file-v6")
        let moved = upload.replacingResumeURL(try HTTPURL(validating: "https://eu.uploads.example.com/resumable_upload/9"))
        #expect(moved.entries.map(\.key) == upload.entries.map(\.key))
        #expect(moved.resumeURL?.absoluteString == "https://eu.uploads.example.com/resumable_upload/9")
        let again = try #require(try UploadResumeData.read(try moved.encoded()))
        #expect(again.mask == upload.mask)
        #expect(again.resumeURL?.absoluteString == "https://eu.uploads.example.com/resumable_upload/9")
        #expect(try again.originalRequest()?.urlString == "https://uploads.example.com/photos")
    }

    @Test func aMissingKeyGoesWhereCFNetworkWritesIt() throws {
        let taskInfo = try UploadResumeDataTests.read("upload-refused")
        let mended = taskInfo.replacing(UploadResumeKey.uploadFile, with: .url(.init(relativeString: UploadResumeDataTests.fileURL)))
        #expect(mended.entries.map(\.key) == ["draftVersion", "resumeURL", "originalRequest", "bodyType", "uploadFile"])
        let noDraft = UploadResumeData(entries: [.init(key: "bodyType", value: .integer(1))], mask: [])
            .replacing(UploadResumeKey.draftVersion, with: .string("6"))
        #expect(noDraft.entries.map(\.key) == ["draftVersion", "bodyType"])
    }

    @Test func aRepeatedKeyIsWrittenOnce() {
        let twice = UploadResumeData(entries: [
            .init(key: "resumeURL", value: .string("a")), .init(key: "bodyType", value: .integer(0)), .init(key: "resumeURL", value: .string("b")),
        ], mask: [])
        let once = twice.replacing(UploadResumeKey.resumeURL, with: .string("c"))
        #expect(once.entries.map(\.key) == ["resumeURL", "bodyType"])
        #expect(once.entries.first?.value == .string("c"))
    }
}

/// The plain archive in XML: the same dictionary as the binary one.
@Suite struct UploadResumeDataArchiveFormatTests {
    @Test func theXMLArchiveHoldsTheSameEntries() throws {
        let upload = try UploadResumeDataTests.read("upload-file-v6")
        let xml = try upload.keyedArchiveData(format: .xml)
        #expect(xml.starts(with: Data("<?xml".utf8)))
        let archive = try KeyedArchive(data: xml)
        #expect(archive.topKey == "root")
        #expect(try archive.decodeRoot() == .dictionary(upload.entries))
        #expect(try upload.keyedArchiveData(format: .binary) == (try upload.encoded(masked: false)))
    }
}

/// The XML archive `convert --to keyed-archive-xml` writes reads back as the same upload,
/// unmasked, so it can be masked again; an XML download blob is still left to ResumeData.
@Suite struct UploadResumeDataXMLReadingTests {
    @Test func theXMLArchiveReadsBackUnmasked() throws {
        let upload = try UploadResumeDataTests.read("upload-file-v6")
        let xml = try upload.keyedArchiveData(format: .xml)
        let again = try #require(try UploadResumeData.read(xml))
        #expect(again.entries == upload.entries)
        #expect(again.mask == [UInt8](repeating: 0, count: 8))
        #expect(UploadResumeDataValidator().findings(for: again).map(\.description) == [
            "warning[upload-unmasked]: the blob is a plain keyed archive (it starts \"bplist00\", or is XML): URLSession XORs its first 8 bytes with a constant before reading, so a device will not read it as it is",
        ])
        var marked = Data("\u{FEFF}".utf8)
        marked.append(xml)
        #expect(try UploadResumeData.read(marked)?.entries == upload.entries)
    }

    @Test func anXMLDownloadBlobIsNoUpload() throws {
        let bytes = try Data(contentsOf: UploadResumeDataTests.samples.appendingPathComponent("ios9-xml.plist"))
        #expect(try UploadResumeData.read(bytes) == nil)
        // Broken XML that names an upload key is not certainly an upload: the download reader says what it is.
        #expect(try UploadResumeData.read(Data("<?xml version=\"1.0\"?><plist><dict><key>draftVersion</key>".utf8)) == nil)
    }
}
