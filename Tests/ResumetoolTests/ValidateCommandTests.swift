import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool validate`: one line per finding, exit 0 clean, 1 error finding, 2 unreadable.
@Suite struct ValidateCommandTests {
    static let missingValidator = "error: NSURLSessionResumeEntityTag: neither an entity tag nor a server date: a device won't resume, and no one can prove the server's file is unchanged [missing-validator]"

    /// What validate prints for each readable sample, without --tmp-dir.
    static let expected: [String: (status: Int32, lines: [String])] = [
        "binary-dictionary.bplist": (0, ["ok"]),
        "ios12-keyed-archive.resumedata": (0, ["ok"]),
        "ios8-local-path.plist": (0, ["ok"]),
        "ios9-xml.plist": (0, ["ok"]),
        "webkit-keyed-archive.plist": (0, ["ok"]),
        "nwurlsession-ios17.resumedata": (0, ["ok"]),
        "nwurlsession-ios26.resumedata": (0, ["ok"]),
        "nwurlsession-webkit.resumedata": (0, ["ok"]),
        "broken-missing-validator.resumedata": (1, [missingValidator]),
        "broken-too-small.resumedata": (1, [
            "error: the blob is only 286 bytes: iOS 12 background sessions wrote such blobs for servers without range support, and they cannot resume [too-small]",
            "error: NSURLSessionDownloadURL: no download URL and no request to take one from [missing-url]",
            "error: NSURLSessionResumeInfoTempFileName: neither a temp file name nor a local path: nothing names the partial file [missing-partial-file]",
            missingValidator,
            "warning: NSURLSessionResumeBytesReceived: no byte count: a device starts the download over [missing-bytes-received]",
        ]),
        "ios10-corrupted-requests.plist": (1, [
            "error: NSURLSessionResumeCurrentRequest: the request archive is in the secure layout that iOS 10.0/10.1 wrote but cannot read back (error -3003): run `resumetool repair --target ios10` [ios10-request-archive]",
            "error: NSURLSessionResumeOriginalRequest: the request archive is in the secure layout that iOS 10.0/10.1 wrote but cannot read back (error -3003): run `resumetool repair --target ios10` [ios10-request-archive]",
        ]),
        "ios11-byte-range.plist": (1, [
            "error: NSURLSessionResumeByteRange: iOS 11.0–11.2 added this key, and resuming with it \"completes\" with a truncated file: run `resumetool repair --target ios11` to remove it [ios11-byte-range]",
        ]),
    ]

    static func output(_ sample: String, _ lines: [String]) -> String {
        lines.map { "\(sample): \($0)\n" }.joined()
    }

    @Test(arguments: EndToEnd.readableSamples)
    func readableSample(_ sample: String) throws {
        let wanted = try #require(Self.expected[sample])
        let result = try EndToEnd.run(["validate", sample])
        #expect(result == ToolRunner.Result(status: wanted.status, stdout: Self.output(sample, wanted.lines), stderr: ""))
    }

    @Test(arguments: EndToEnd.unreadableSamples.map(\.name))
    func unreadableSampleExitsTwo(_ sample: String) throws {
        let diagnostic = try #require(EndToEnd.unreadableSamples.first { $0.name == sample }?.diagnostic)
        let result = try EndToEnd.run(["validate", sample])
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
    }

    @Test func aNetworkFrameworkBlobWithoutFileOrValidator() throws {
        let folder = try TemporaryDirectory()
        var resume = try SampleGenerator.network(layout: .flat)
        resume.tempFileName = nil
        resume.localPath = nil
        resume.entries[ResumeDataKey.response] = nil
        let path = folder.path("nw.resumedata")
        try resume.encoded().write(to: URL(fileURLWithPath: path))
        let result = try EndToEnd.run(["validate", path])
        #expect(result == ToolRunner.Result(status: 1, stdout: Self.output(path, [
            "error: NSURLSessionResumeInfoTempFileName: neither a temp file name nor a local path: nothing names the partial file [missing-partial-file]",
            "error: NSURLSessionResumeResponse: no ETag or Last-Modified header in the response (the only place this format keeps them): a device won't resume, and no one can prove the server's file is unchanged [missing-validator]",
        ]), stderr: ""))
    }

    @Test func aNetworkFrameworkBlobWithItsPartialFileInTmpDir() throws {
        let result = try EndToEnd.run(["validate", "--tmp-dir", ".", "nwurlsession-ios26.resumedata"])
        #expect(result == ToolRunner.Result(status: 0, stdout: "nwurlsession-ios26.resumedata: ok\n", stderr: ""))
        let folder = try TemporaryDirectory()
        let missing = try EndToEnd.run(["validate", "--tmp-dir", folder.url.path, "nwurlsession-ios26.resumedata"])
        #expect(missing == ToolRunner.Result(status: 1, stdout: "nwurlsession-ios26.resumedata: error: NSURLSessionResumeInfoTempFileName: the partial file \(folder.path(EndToEnd.partialName)) does not exist [temp-file-missing]\n", stderr: ""))
    }

    @Test func withTheSamplesFolderAsTmpDir() throws {
        // The partial file there has the 4096 bytes the modern samples name: they stay clean.
        for sample in ["ios9-xml.plist", "ios12-keyed-archive.resumedata", "webkit-keyed-archive.plist", "binary-dictionary.bplist"] {
            let result = try EndToEnd.run(["validate", "--tmp-dir", ".", sample])
            #expect(result == ToolRunner.Result(status: 0, stdout: "\(sample): ok\n", stderr: ""))
        }
        // The iOS 10 dictionary received 2,339,054 bytes, more than the partial file holds.
        let ios10 = try EndToEnd.run(["validate", "--tmp-dir", ".", "ios10-corrupted-requests.plist"])
        let lines = try #require(Self.expected["ios10-corrupted-requests.plist"]).lines + [
            "error: NSURLSessionResumeInfoTempFileName: the partial file \(EndToEnd.samples.path)/CFNetworkDownload_Occ2S2.tmp has 4096 bytes, fewer than the 2339054 received [temp-file-size]",
        ]
        #expect(ios10 == ToolRunner.Result(status: 1, stdout: Self.output("ios10-corrupted-requests.plist", lines), stderr: ""))
    }

    @Test func withATmpDirMissingThePartialFile() throws {
        let folder = try TemporaryDirectory()
        let result = try EndToEnd.run(["validate", "--tmp-dir", folder.url.path, "ios12-keyed-archive.resumedata"])
        #expect(result.status == 1)
        #expect(result.stderr == "")
        #expect(result.stdout == "ios12-keyed-archive.resumedata: error: NSURLSessionResumeInfoTempFileName: the partial file \(folder.url.path)/CFNetworkDownload_Occ2S2.tmp does not exist [temp-file-missing]\n")
    }

    @Test func aTmpDirThatIsNotAFolderIsAUsageError() throws {
        let result = try EndToEnd.run(["validate", "--tmp-dir", "/nonexistent-folder", "ios12-keyed-archive.resumedata"])
        #expect(result == ToolRunner.Result(
            status: 64, stdout: "",
            stderr: "Error: --tmp-dir /nonexistent-folder is not a folder\nUsage: resumetool validate [--tmp-dir <tmp-dir>] [--json] [--strict] [--files-from <FILE>] [<blobs> ...]\n  See 'resumetool validate --help' for more information.\n"))
    }

    @Test func withAPartialFileOfTheWrongSize() throws {
        let folder = try TemporaryDirectory()
        try Data(count: 1000).write(to: folder.url.appendingPathComponent(EndToEnd.partialName))
        let result = try EndToEnd.run(["validate", "--tmp-dir", folder.url.path, "binary-dictionary.bplist"])
        #expect(result == ToolRunner.Result(
            status: 1,
            stdout: "binary-dictionary.bplist: error: NSURLSessionResumeInfoTempFileName: the partial file \(folder.url.path)/CFNetworkDownload_Occ2S2.tmp has 1000 bytes, fewer than the 4096 received [temp-file-size]\n",
            stderr: ""))
    }

    @Test func severalBlobsTheWorstStatusWins() throws {
        let clean = try EndToEnd.run(["validate", "ios9-xml.plist", "ios12-keyed-archive.resumedata"])
        #expect(clean == ToolRunner.Result(status: 0, stdout: "ios9-xml.plist: ok\nios12-keyed-archive.resumedata: ok\n", stderr: ""))

        let error = try EndToEnd.run(["validate", "ios9-xml.plist", "broken-missing-validator.resumedata"])
        #expect(error == ToolRunner.Result(
            status: 1, stdout: "ios9-xml.plist: ok\n" + Self.output("broken-missing-validator.resumedata", [Self.missingValidator]), stderr: ""))

        // Unreadable beats an error finding, whichever comes first.
        for order in [["broken-xml.plist", "ios11-byte-range.plist"], ["ios11-byte-range.plist", "broken-xml.plist"]] {
            let result = try EndToEnd.run(["validate"] + order)
            #expect(result.status == 2)
            #expect(result.stdout == Self.output("ios11-byte-range.plist", try #require(Self.expected["ios11-byte-range.plist"]).lines))
            #expect(result.stderr == "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\n")
        }
    }

    @Test func standardInputAndMissingFile() throws {
        let stdin = try EndToEnd.run(["validate", "-"], stdin: try EndToEnd.sample("ios11-byte-range.plist"))
        #expect(stdin == ToolRunner.Result(status: 1, stdout: Self.output("<stdin>", try #require(Self.expected["ios11-byte-range.plist"]).lines), stderr: ""))
        let missing = try EndToEnd.run(["validate", "nothing.plist"])
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "nothing.plist: error: no such file\n"))
    }
}

/// `validate --json`: one shape for any number of blobs, an array in the order given, a blob
/// that could not be read as `{"file", "error"}` (and on standard error, exit 2).
@Suite struct ValidateJSONTests {
    @Test func anArrayInTheOrderGiven() throws {
        let result = try EndToEnd.run(["validate", "--json", "ios12-keyed-archive.resumedata", "broken-xml.plist", "broken-missing-validator.resumedata"])
        #expect(result.status == 2)
        #expect(result.stderr == "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\n")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["file"] as? String } == ["ios12-keyed-archive.resumedata", "broken-xml.plist", "broken-missing-validator.resumedata"])
        #expect(array[0]["ok"] as? Bool == true)
        #expect((array[0]["findings"] as? [Any])?.isEmpty == true)
        #expect(array[1]["error"] as? String == "expected </string> (opened on line 6), found </key>")
        #expect(array[2]["ok"] as? Bool == false)
        let codes = (array[2]["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["missing-validator"])
        // One blob is an array of one, as inspect's help promises jq '.[]' works.
        let one = try EndToEnd.run(["validate", "--json", "ios9-xml.plist"])
        #expect(one.status == 0)
        #expect(one.stdout == "[\n  {\n    \"file\": \"ios9-xml.plist\",\n    \"ok\": true,\n    \"findings\": []\n  }\n]\n")
    }
}
