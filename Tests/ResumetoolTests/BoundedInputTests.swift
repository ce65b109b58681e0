import Foundation
import ResumeDataCodec
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Inputs that cost nothing to make and everything to read, through the built binary: a Safari
/// bundle whose partial file is a terabyte of holes (`truncate -s 1T`), which `inspect`,
/// `validate` and `scan` read to its end for a SHA-256 (13 minutes), and a FIFO given as the file
/// to upload, on which `open` blocked for ever. Each run is killed after a minute, so that a
/// regression fails instead of hanging the suite.
@Suite struct BoundedInputTests {
    static let terabyte: Int64 = 1 << 40
    /// SHA-256 of 2,048 bytes of 7 (Python's hashlib).
    static let sha256OfSevens = "e4fde89f39bc53b90e9935a8015b80dd6e4135485e894094a3517fa250e344ae"
    static let sparseSentence = "not hashed: sparse, 1,099,511,627,776 bytes (1.0 TiB) apparent, 0 bytes allocated (resumetool scan --hash-limit none hashes it)"

    /// `resumetool ARGS` in `directory`, killed after `seconds`: status 137 then.
    static func run(_ arguments: [String], in directory: URL, seconds: Int = 60) throws -> ToolRunner.Result {
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/timeout"),
                                            ["-s", "KILL", String(seconds), ToolRunner.executable.path] + arguments, in: directory)
        return ToolRunner.Result(status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                                 stderr: String(decoding: output.stderr, as: UTF8.self))
    }

    /// `Downloads/big.bin.download/` with a minimal Info.plist and `big.bin`, 1 TiB of holes.
    static func sparseBundle(in directory: TemporaryDirectory) throws -> String {
        let bundle = directory.url.appendingPathComponent("Downloads/big.bin.download")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>DownloadEntryURL</key>
            \t<string>https://downloads.example.com/big.bin</string>
            \t<key>DownloadEntryProgressBytesSoFar</key>
            \t<integer>\(terabyte)</integer>
            </dict>
            </plist>

            """
        try Data(info.utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        let partial = bundle.appendingPathComponent("big.bin")
        try Data().write(to: partial)
        let handle = try FileHandle(forWritingTo: partial)
        try handle.truncate(atOffset: UInt64(terabyte))
        try handle.close()
        return "Downloads/big.bin.download"
    }

    @Test func inspectDescribesASparsePartialFileWithoutReadingIt() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Self.sparseBundle(in: directory)
        let text = try Self.run(["inspect", bundle], in: directory.url)
        #expect(text.status == 0, Comment(rawValue: text.stderr))
        #expect(text.stdout.contains("\n  partial file:     big.bin, 1,099,511,627,776 bytes (1.0 TiB), as received\n"
                                     + "  SHA-256:          \(Self.sparseSentence)\n"), Comment(rawValue: text.stdout))
        let json = try Self.run(["inspect", "--json", bundle], in: directory.url)
        #expect(json.status == 0, Comment(rawValue: json.stderr))
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let partial = try #require(reports.first?["partialFile"] as? [String: Any])
        #expect(partial["sha256"] is NSNull)
        #expect(partial["size"] as? Int64 == Self.terabyte)
        let skipped = try #require(partial["hashSkipped"] as? [String: Any])
        #expect(skipped["reason"] as? String == "sparse")
        #expect(skipped["size"] as? Int64 == Self.terabyte)
        #expect(skipped["allocatedSize"] as? Int64 == 0)
        #expect(skipped["limit"] as? Int64 == 4 << 30)
        #expect(skipped["remedy"] as? String == "resumetool scan --hash-limit none hashes it")
    }

    @Test func validateJudgesASparseBundleWithoutHashingIt() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Self.sparseBundle(in: directory)
        let result = try Self.run(["validate", bundle], in: directory.url)
        #expect(result.status == 0, Comment(rawValue: result.stderr))
        #expect(result.stdout.contains(
            "\(bundle): note: the partial file big.bin is sparse: 1099511627776 bytes apparent, 0 allocated; its holes read as zeros, "
            + "and it was not hashed (resumetool scan --hash-limit none hashes it) [sparse-partial-file]\n"),
            Comment(rawValue: result.stdout))
    }

    @Test func scanReportsASparsePartialFileInEveryFormat() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.sparseBundle(in: directory)
        let text = try Self.run(["scan", "Downloads"], in: directory.url)
        #expect(text.status == 0, Comment(rawValue: text.stderr))
        #expect(text.stdout.contains("\n    SHA-256: \(Self.sparseSentence)\n"), Comment(rawValue: text.stdout))

        let json = try Self.run(["scan", "--json", "Downloads"], in: directory.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        // The bundle's Info.plist names it: a Safari bundle's partial file, no orphan.
        let partial = try #require((document["safariPartialFiles"] as? [[String: Any]])?.first)
        #expect(partial["sha256"] is NSNull)
        let skipped = try #require(partial["hashSkipped"] as? [String: Any])
        #expect(skipped["reason"] as? String == "sparse")
        #expect(skipped["allocatedSize"] as? Int64 == 0)

        let lines = try Self.run(["scan", "--jsonl", "Downloads"], in: directory.url)
        let objects = try lines.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let line = try #require(objects.first { $0["finding"] as? String == "safari-partial-file" })
        #expect((line["hashSkipped"] as? [String: Any])?["reason"] as? String == "sparse")

        let field = "sparse: 1099511627776 bytes apparent, 0 allocated, limit 4294967296"
        let csv = try Self.run(["scan", "--csv", "Downloads"], in: directory.url)
        let rows = try ScanTests.parseCSV(csv.stdout)
        #expect(rows.first?.last == "hashSkipped")
        #expect(rows.dropFirst().map(\.last) == [field])
        let tsv = try Self.run(["scan", "--tsv", "Downloads"], in: directory.url)
        #expect(tsv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).last } == [Substring(field)])
        let timeline = try Self.run(["scan", "--timeline", "Downloads"], in: directory.url)
        let events = try ScanTests.parseCSV(timeline.stdout)
        #expect(events.first?.last == "hashSkipped")
        #expect(events.count > 1 && events.dropFirst().allSatisfy { $0.last == field })
        let html = try Self.run(["scan", "--html", "-", "Downloads"], in: directory.url)
        #expect(html.stdout.contains(Self.sparseSentence))
    }

    @Test func hashLimitIsParsedAndNoneAsksForTheHash() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("Downloads/small.bin.download")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 2048).write(to: folder.appendingPathComponent("small.bin"))
        let limited = try Self.run(["scan", "--json", "--hash-limit", "1K", "Downloads"], in: directory.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [String: Any])
        let orphan = try #require((document["orphanPartialFiles"] as? [[String: Any]])?.first)
        let skipped = try #require(orphan["hashSkipped"] as? [String: Any])
        #expect(skipped["reason"] as? String == "large")
        #expect(skipped["limit"] as? Int == 1024)
        let hashed = try Self.run(["scan", "--json", "--hash-limit", "none", "Downloads"], in: directory.url)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(hashed.stdout.utf8)) as? [String: Any])
        let file = try #require((all["orphanPartialFiles"] as? [[String: Any]])?.first)
        #expect(file["sha256"] as? String == Self.sha256OfSevens)
        #expect(file["hashSkipped"] is NSNull)
        let refused = try Self.run(["scan", "--hash-limit", "lots", "Downloads"], in: directory.url)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--hash-limit takes a size (4G, 512M, 1073741824) or none, not lots"))
    }

    /// A folder where a blob or a property list is read is named as what it is, as `upload` and
    /// `explain --file` name a FIFO, not with the system's bare "Is a directory".
    @Test(arguments: [["explain"], ["repair"], ["archive"], ["resume"], ["plist", "print"], ["convert", "--to", "xml"]])
    func aFolderGivenAsABlobIsSaidToBeOne(_ command: [String]) throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("dd"), withIntermediateDirectories: true)
        let result = try Self.run(command + ["dd"], in: directory.url)
        #expect(result.stdout == "", "\(command)")
        #expect(result.stderr == "dd: error: it is a folder, not a regular file\n", "\(command)")
        #expect(result.status == 2, "\(command)")
    }

    @Test func uploadRefusesAFIFOAtOnce() throws {
        let directory = try TemporaryDirectory()
        try #require(mkfifo(directory.path("pipe"), 0o600) == 0)
        let result = try Self.run(["upload", "pipe", "http://127.0.0.1:9/files"], in: directory.url)
        #expect(result.status == 2, Comment(rawValue: result.stderr))
        #expect(result.stderr.contains("cannot read the file: pipe: it is a FIFO, not a regular file"), Comment(rawValue: result.stderr))
    }

    @Test func resumeOfAnUploadBlobRefusesAFIFOAtOnce() throws {
        let directory = try TemporaryDirectory()
        try #require(mkfifo(directory.path("pipe"), 0o600) == 0)
        let upload = try UploadResumeData.fileUpload(
            draftVersion: try #require(UploadDraftVersion("6")), resumeURL: try HTTPURL(validating: "http://127.0.0.1:9/resumable_upload/1"),
            requestURL: try HTTPURL(validating: "http://127.0.0.1:9/files"), method: "POST", headers: [], file: directory.path("pipe"))
        try upload.encoded().write(to: directory.url.appendingPathComponent("a.uploadresume"))
        let result = try Self.run(["resume", "a.uploadresume", "--file", "pipe"], in: directory.url)
        #expect(result.status == 2, Comment(rawValue: result.stderr))
        #expect(result.stderr.contains("cannot read the file: pipe: it is a FIFO, not a regular file"), Comment(rawValue: result.stderr))
    }

    /// A blob or list may be a pipe (`<(find …)`) but not a device; a named FIFO with no writer
    /// reads as empty at once, where the open blocked.
    @Test func aBlobThatIsADeviceIsRefusedAndAFIFOWithoutAWriterDoesNotBlock() throws {
        let directory = try TemporaryDirectory()
        let device = try Self.run(["inspect", "/dev/zero"], in: directory.url)
        #expect(device == ToolRunner.Result(status: 2, stdout: "", stderr: "/dev/zero: error: it is a device, not a regular file\n"))
        let list = try Self.run(["validate", "--files-from", "/dev/zero"], in: directory.url)
        #expect(list == ToolRunner.Result(status: 2, stdout: "", stderr: "/dev/zero: error: it is a device, not a regular file\n"))
        let upload = try Self.run(["upload", "/dev/zero", "http://127.0.0.1:9/files"], in: directory.url)
        #expect(upload.status == 2)
        #expect(upload.stderr.contains("cannot read the file: /dev/zero: it is a device, not a regular file"), Comment(rawValue: upload.stderr))
        try #require(mkfifo(directory.path("pipe"), 0o600) == 0)
        let fifo = try Self.run(["inspect", "pipe"], in: directory.url)
        #expect(fifo == ToolRunner.Result(status: 2, stdout: "", stderr: "pipe:1:1: error: the document is empty: expected <plist> or a value\n"))
    }
}
