import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool relocate`: a new TempFileName or LocalPath, the container kept.
@Suite struct RelocateCommandTests {
    // WebKit's wrapper ignores the temp file name (its local path replaces it): see newLocalPathOfAWrappedBlob.
    @Test(arguments: EndToEnd.readableSamples.filter { !$0.hasPrefix("broken-too-small") && $0 != "nwurlsession-webkit.resumedata" })
    func newTempFileName(_ sample: String) throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let result = try EndToEnd.run(["relocate", sample, "--temp-file", "CFNetworkDownload_Moved.tmp", "-o", output])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let original = try ResumeData(data: try EndToEnd.sample(sample))
        let moved = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(moved.container == original.container)
        #expect(moved.tempFileName == "CFNetworkDownload_Moved.tmp")
        var expected = original
        expected.tempFileName = "CFNetworkDownload_Moved.tmp"
        #expect(moved.entries == expected.entries)
    }

    @Test func newLocalPath() throws {
        let result = try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", "/var/tmp/Example.partial"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let moved = try ResumeData(data: Data(result.stdout.utf8))
        #expect(moved.container == .xml)
        #expect(moved.localPath == "/var/tmp/Example.partial")
        var expected = try ResumeData(data: try EndToEnd.sample("ios8-local-path.plist"))
        expected.localPath = "/var/tmp/Example.partial"
        #expect(moved.entries == expected.entries)
    }

    @Test func newLocalPathOfAWrappedBlob() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let result = try EndToEnd.run(["relocate", "nwurlsession-webkit.resumedata", "--local-path", "/var/tmp/QQ.partial", "-o", output])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let moved = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(moved.container == .networkFrameworkWebKit)
        #expect(moved.localPath == "/var/tmp/QQ.partial")
        var expected = try ResumeData(data: try EndToEnd.sample("nwurlsession-webkit.resumedata"))
        expected.localPath = "/var/tmp/QQ.partial"
        #expect(moved == expected)
    }

    @Test func standardInputToABinaryFile() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let result = try EndToEnd.run(["relocate", "-", "--temp-file", "x.tmp", "-o", output],
                                      stdin: try EndToEnd.sample("ios12-keyed-archive.resumedata"))
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let moved = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(moved.container == .keyedArchive)
        #expect(moved.tempFileName == "x.tmp")
    }

    static let usage = """
        Usage: resumetool relocate <blob> [--temp-file <temp-file>] [--local-path <local-path>] [--output <output>] [--strict]
          See 'resumetool relocate --help' for more information.

        """

    @Test func exactlyOneOfTheTwoOptions() throws {
        let neither = try EndToEnd.run(["relocate", "ios9-xml.plist"])
        #expect(neither == ToolRunner.Result(status: 64, stdout: "", stderr: "Error: give exactly one of --temp-file and --local-path\n" + Self.usage))
        let both = try EndToEnd.run(["relocate", "ios9-xml.plist", "--temp-file", "a.tmp", "--local-path", "/b.tmp"])
        #expect(both == neither)
    }

    @Test func badNamesAreUsageErrorsAndWriteNothing() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let slash = try EndToEnd.run(["relocate", "ios9-xml.plist", "--temp-file", "tmp/a.tmp", "-o", output])
        #expect(slash == ToolRunner.Result(
            status: 64, stdout: "",
            stderr: "Error: a temp file name must be a bare file name, not \"tmp/a.tmp\"\n  See 'resumetool relocate --help' for more information.\n"))
        let relative = try EndToEnd.run(["relocate", "ios9-xml.plist", "--local-path", "tmp/a.tmp", "-o", output])
        #expect(relative == ToolRunner.Result(
            status: 64, stdout: "",
            stderr: "Error: a local path must be absolute, not \"tmp/a.tmp\"\n  See 'resumetool relocate --help' for more information.\n"))
        let dots = try EndToEnd.run(["relocate", "ios9-xml.plist", "--temp-file", "..", "-o", output])
        #expect(dots == ToolRunner.Result(
            status: 64, stdout: "",
            stderr: "Error: a temp file name must be a bare file name, not \"..\"\n  See 'resumetool relocate --help' for more information.\n"))
        #expect(try folder.contents() == [])
    }

    @Test func aNewLocalPathWarnsWhenATempFileNameStillWins() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let result = try EndToEnd.run(["relocate", "ios9-xml.plist", "--local-path", "/var/tmp/Example.partial", "-o", output])
        #expect(result == ToolRunner.Result(
            status: 0, stdout: "",
            stderr: "ios9-xml.plist: warning: the blob also names the temp file CFNetworkDownload_Occ2S2.tmp, which systems since iOS 9 look for first; use --temp-file to change it\n"))
        let moved = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(moved.localPath == "/var/tmp/Example.partial")
    }

    @Test func rejectedInputWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("moved")
        let result = try EndToEnd.run(["relocate", "broken-xml.plist", "--temp-file", "a.tmp", "-o", output])
        #expect(result == ToolRunner.Result(
            status: 2, stdout: "", stderr: "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\n"))
        #expect(try folder.contents() == [])
    }
}
