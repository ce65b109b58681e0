import Foundation
import Testing
@testable import ResumeDataCodec

/// Paths and helpers shared by the end-to-end tests of the `resumetool` binary.
enum EndToEnd {
    static let repository = SampleGenerator.repository
    static let samples = SampleGenerator.samples
    static let fixtures = repository.appendingPathComponent("Tests/ResumeDataCodecTests/Fixtures")
    static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected")

    /// Every file in `Samples/` that holds a resume blob we can read.
    static let readableSamples = [
        "binary-dictionary.bplist",
        "broken-missing-validator.resumedata",
        "broken-too-small.resumedata",
        "ios10-corrupted-requests.plist",
        "ios11-byte-range.plist",
        "ios12-keyed-archive.resumedata",
        "ios8-local-path.plist",
        "ios9-xml.plist",
        "nwurlsession-ios17.resumedata",
        "nwurlsession-ios26.resumedata",
        "nwurlsession-webkit.resumedata",
        "webkit-keyed-archive.plist",
    ]

    /// The Network-framework samples.
    static let networkSamples = ["nwurlsession-ios17.resumedata", "nwurlsession-ios26.resumedata", "nwurlsession-webkit.resumedata"]

    /// Every file in `Samples/` that is not a readable blob, with the one-line diagnostic it gets.
    static let unreadableSamples: [(name: String, diagnostic: String)] = [
        ("CFNetworkDownload_Occ2S2.tmp",
         "CFNetworkDownload_Occ2S2.tmp:1:1: error: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"),
        ("README.md",
         "README.md:1:1: error: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"),
        ("broken-truncated.resumedata",
         "broken-truncated.resumedata: byte 0x1183: error: object-reference size is 214; it must be 1 to 8 (the last 32 bytes are not a trailer: is the file truncated?)"),
        ("broken-xml.plist",
         "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>"),
        ("newer-obscured-format.resumedata",
         "newer-obscured-format.resumedata: error: $objects[1]: the root is an NSMutableDictionary, not an NWURLSessionDownloadResumeInfo"),
    ]

    static let url = SampleGenerator.url
    static let partialName = SampleGenerator.partialName

    /// Runs the tool with `Samples/` as the working folder, so diagnostics name samples as a user types them.
    static func run(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws -> ToolRunner.Result {
        try ToolRunner.run(arguments, stdin: stdin, in: directory ?? samples)
    }

    /// Runs the tool and returns standard output as bytes (``ToolRunner`` decodes it as UTF-8,
    /// which spoils binary plists); fails the test unless the tool exits 0 with nothing on stderr.
    static func runForBytes(_ arguments: [String], stdin: Data? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let output = try ToolRunner.capture(ToolRunner.executable, arguments, stdin: stdin, in: samples)
        #expect(output.status == 0, sourceLocation: sourceLocation)
        #expect(String(decoding: output.stderr, as: UTF8.self) == "", sourceLocation: sourceLocation)
        return output.stdout
    }

    /// The one report of `inspect --json BLOB`: the output is an array even for one blob.
    static func onlyReport(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]],
                                 "not an array of objects", sourceLocation: sourceLocation)
        #expect(array.count == 1, sourceLocation: sourceLocation)
        return try #require(array.first, sourceLocation: sourceLocation)
    }

    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: samples.appendingPathComponent(name))
    }

    /// Compares `actual` with `Expected/NAME`; `RESUMETOOL_WRITE_EXPECTED=1` rewrites the file
    /// instead, and that run fails on purpose for each file it rewrote: a rewrite is a deliberate
    /// act whose diff is reviewed, and a run in that mode proves nothing, so it can never pass.
    static func checkExpected(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = expected.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RESUMETOOL_WRITE_EXPECTED"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let before = try? Data(contentsOf: file)
            try Data(actual.utf8).write(to: file)
            Issue.record("Expected/\(name) \(before == Data(actual.utf8) ? "rewritten unchanged" : "rewritten with new contents") (RESUMETOOL_WRITE_EXPECTED=1): review the diff, then run again without the variable",
                         sourceLocation: sourceLocation)
        }
        let wanted = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == wanted, "differs from Expected/\(name); rerun with RESUMETOOL_WRITE_EXPECTED=1 and review", sourceLocation: sourceLocation)
    }

    /// Decodes a blob with the library and returns its entries.
    static func decoded(_ data: Data) throws -> ResumeData {
        try ResumeData(data: data)
    }
}

/// A fresh folder under the system's temporary folder, removed when the test is done with it.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("resumetool-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func copySample(_ name: String, as newName: String? = nil) throws -> String {
        let destination = path(newName ?? name)
        try FileManager.default.copyItem(atPath: EndToEnd.samples.appendingPathComponent(name).path, toPath: destination)
        return destination
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Every name in the folder, hidden ones included, so a leftover temp file from an atomic write shows up.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
