import Foundation
import Testing
@testable import ResumeDataCodec

/// A key given twice in one dictionary: kept last with a warning naming where (as Apple's reader,
/// plistlib and libplist keep it), refused under `--strict`, a `validate` finding.
@Suite struct DuplicateKeyTests {
    /// An XML blob whose byte count appears twice: 5, then 7 on line 8.
    static let blob = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>NSURLSessionDownloadURL</key><string>https://a.example/x</string>
          <key>NSURLSessionResumeBytesReceived</key><integer>5</integer>
          <key>NSURLSessionResumeInfoTempFileName</key><string>CFNetworkDownload_1.tmp</string>
          <key>NSURLSessionResumeEntityTag</key><string>"a"</string>
          <key>NSURLSessionResumeBytesReceived</key><integer>7</integer>
        </dict>
        </plist>

        """
    static let warning = "dup.plist:8:3: warning: root.NSURLSessionResumeBytesReceived: duplicate key \"NSURLSessionResumeBytesReceived\" in <dict>; the last value is kept\n"
    static let strictError = "dup.plist:8:3: error: root.NSURLSessionResumeBytesReceived: duplicate key \"NSURLSessionResumeBytesReceived\" in <dict>: each key may appear once\n"
    static let finding = "dup.plist: warning: root.NSURLSessionResumeBytesReceived: at 8:3: duplicate key \"NSURLSessionResumeBytesReceived\" in <dict>; the last value is kept, as Apple's reader does; convert or repair writes each key once [duplicate-key]\n"

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Data(blob.utf8).write(to: folder.url.appendingPathComponent("dup.plist"))
        return folder
    }

    @Test func theLibraryKeepsTheLastValueAndReportsIt() throws {
        let resume = try ResumeData(data: Data(Self.blob.utf8))
        #expect(resume.bytesReceived == 7)
        #expect(resume.readWarnings.map(\.description) == ["8:3: root.NSURLSessionResumeBytesReceived: duplicate key \"NSURLSessionResumeBytesReceived\" in <dict>; the last value is kept"])
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Data(Self.blob.utf8), options: .strict) }
        #expect(error.code == .unreadable)
        // Written again, each key appears once and nothing is left to warn about.
        let rewritten = try ResumeData(data: try resume.encoded(as: .binary), options: .strict)
        #expect(rewritten.readWarnings.isEmpty)
        #expect(rewritten.entries == resume.entries)
    }

    @Test func validateReportsAFindingAndStrictRefuses() throws {
        let folder = try Self.folder()
        #expect(try ToolRunner.run(["validate", "dup.plist"], in: folder.url)
            == ToolRunner.Result(status: 0, stdout: Self.finding, stderr: ""))
        #expect(try ToolRunner.run(["validate", "--strict", "dup.plist"], in: folder.url)
            == ToolRunner.Result(status: 2, stdout: "", stderr: Self.strictError))
    }

    @Test func inspectShowsTheFindingAndTheLastValue() throws {
        let folder = try Self.folder()
        let result = try ToolRunner.run(["inspect", "--json", "dup.plist"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let json = try EndToEnd.onlyReport(result.stdout)
        #expect(json["bytesReceived"] as? Int == 7)
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["duplicate-key"])
        #expect(findings.first?["severity"] as? String == "warning")
        #expect(try ToolRunner.run(["inspect", "--strict", "dup.plist"], in: folder.url)
            == ToolRunner.Result(status: 2, stdout: "", stderr: Self.strictError))
    }

    @Test func convertWarnsAndWritesEachKeyOnceUnlessStrict() throws {
        let folder = try Self.folder()
        let result = try ToolRunner.run(["convert", "dup.plist", "--to", "xml", "-o", "out.plist"], in: folder.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: Self.warning))
        let written = try ResumeData(data: try Data(contentsOf: folder.url.appendingPathComponent("out.plist")), options: .strict)
        #expect(written.bytesReceived == 7)
        #expect(written.entries.keys.filter { $0 == ResumeDataKey.bytesReceived }.count == 1)
        #expect(try ToolRunner.run(["convert", "--strict", "dup.plist", "--to", "xml", "-o", "strict.plist"], in: folder.url)
            == ToolRunner.Result(status: 2, stdout: "", stderr: Self.strictError))
        #expect(!FileManager.default.fileExists(atPath: folder.path("strict.plist")))
    }

    @Test(arguments: [["repair"], ["relocate", "--temp-file", "CFNetworkDownload_2.tmp"]])
    func blobCommandsWarnAndStrictRefuses(_ command: [String]) throws {
        let folder = try Self.folder()
        let result = try ToolRunner.run(command + ["dup.plist", "-o", "out.plist"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix(Self.warning))
        #expect(try ResumeData(data: try Data(contentsOf: folder.url.appendingPathComponent("out.plist")), options: .strict).bytesReceived == 7)
        let strict = try ToolRunner.run(command + ["--strict", "dup.plist", "-o", "strict.plist"], in: folder.url)
        #expect(strict == ToolRunner.Result(status: 2, stdout: "", stderr: Self.strictError))
    }

    /// libplist's own empty_keys.plist, which plistutil and plistlib read: the last value.
    @Test func plistCommandsReadLibplistsEmptyKeys() throws {
        let fixture = EndToEnd.fixtures.appendingPathComponent("libplist/empty_keys.plist").path
        let printed = try ToolRunner.run(["plist", "print", fixture])
        #expect(printed == ToolRunner.Result(status: 0, stdout: "dictionary (1 entry)\n  \"\": string \"empty key with comment\"\n",
                                             stderr: "\(fixture):5:5: warning: root.: duplicate key \"\" in <dict>; the last value is kept\n"))
        let converted = try ToolRunner.run(["plist", "convert", fixture, "--to", "json"])
        #expect(converted.status == 0)
        #expect(converted.stdout == "{\n  \"\": \"empty key with comment\"\n}\n")
        #expect(try ToolRunner.run(["plist", "print", "--strict", fixture])
            == ToolRunner.Result(status: 2, stdout: "", stderr: "\(fixture):5:5: error: root.: duplicate key \"\" in <dict>: each key may appear once\n"))
    }
}
