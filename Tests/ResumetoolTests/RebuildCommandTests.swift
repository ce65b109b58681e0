import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool rebuild`: a blob from the partial file in `Samples/`.
@Suite struct RebuildCommandTests {
    static let url = "https://downloads.example.com/releases/Example-2.4.1.dmg"
    static let etag = "\"5f1c3e-6a2f\""

    @Test(arguments: ["xml", "binary", "keyed-archive", "keyed-archive-xml"])
    func everyFormat(_ format: String) throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("rebuilt")
        let result = try EndToEnd.run([
            "rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag,
            "--last-modified", "Tue, 17 Nov 2026 09:12:44 GMT",
            "--header", "Authorization: Bearer abc:def", "--header", "X-Trace:  42 ",
            "--to", format, "-o", output,
        ])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let resume = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(resume.container.rawValue == format)
        #expect(resume.downloadURL == Self.url)
        #expect(resume.bytesReceived == 4096)
        #expect(resume.tempFileName == EndToEnd.partialName)
        #expect(resume.localPath == nil)
        #expect(resume.entityTag == Self.etag)
        #expect(resume.serverDownloadDate == "Tue, 17 Nov 2026 09:12:44 GMT")
        #expect(resume.infoVersion == (resume.container.isKeyedArchive ? 4 : 2))
        let layout: URLRequestArchive.Layout = resume.container.isKeyedArchive ? .secure : .legacy
        let current = try #require(try resume.request(.current))
        #expect(current.urlString == Self.url)
        #expect(current.method == "GET")
        #expect(current.layout == layout)
        // Header values are trimmed; a colon inside a value stays.
        #expect(current.headers.map { "\($0.name): \($0.value)" } == ["Authorization: Bearer abc:def", "X-Trace: 42", "Range: bytes=4096-"])
        let original = try #require(try resume.request(.original))
        #expect(original.headers.map { "\($0.name): \($0.value)" } == ["Authorization: Bearer abc:def", "X-Trace: 42"])
        #expect(original.layout == layout)
        // The rebuilt blob passes validate next to its partial file.
        let validated = try EndToEnd.run(["validate", "--tmp-dir", ".", output])
        #expect(validated == ToolRunner.Result(status: 0, stdout: "\(output): ok\n", stderr: ""))
    }

    @Test func defaultsToAKeyedArchiveOnStandardOutput() throws {
        let bytes = try EndToEnd.runForBytes(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag])
        #expect(bytes.starts(with: Data("bplist00".utf8)))
        let resume = try ResumeData(data: bytes)
        #expect(resume.container == .keyedArchive)
        #expect(resume.serverDownloadDate == nil)
    }

    @Test func localPathNamesTheAbsolutePath() throws {
        let result = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag,
                                       "--local-path", "--to", "xml"])
        #expect(result.status == 0)
        let resume = try ResumeData(data: Data(result.stdout.utf8))
        #expect(resume.localPath == EndToEnd.samples.appendingPathComponent(EndToEnd.partialName).path)
        #expect(resume.tempFileName == nil)
    }

    @Test func withoutAValidatorTheBlobIsWrittenButValidateSaysSo() throws {
        let result = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--to", "xml", "--offline"])
        #expect(result.status == 0)
        #expect(result.stderr == "\(EndToEnd.partialName): warning: the blob has no validator (ETag or Last-Modified): a device restarts it from zero; give --etag or --last-modified (--offline)\n")
        let resume = try ResumeData(data: Data(result.stdout.utf8))
        #expect(ResumeDataValidator().findings(for: resume).map(\.code) == [.missingValidator])
    }

    @Test func missingOrOddPartialFile() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out")
        let missing = try EndToEnd.run(["rebuild", "--partial", "no-such.tmp", "--url", Self.url, "-o", output])
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such.tmp: error: no such file\n"))
        let directory = try EndToEnd.run(["rebuild", "--partial", ".", "--url", Self.url, "-o", output])
        #expect(directory == ToolRunner.Result(status: 2, stdout: "", stderr: ".: error: is not a regular file\n"))
        #expect(try folder.contents() == [])
    }

    @Test(arguments: [
        ("not a url", "it holds a space at byte 3"), ("ftp://downloads.example.com/x.dmg", "its scheme is \"ftp\""),
        ("downloads.example.com/x.dmg", "it has no scheme"), ("", "it is not a valid URL"), ("http://", "it names no host"),
    ])
    func badURLIsAUsageError(_ url: String, _ reason: String) throws {
        let folder = try TemporaryDirectory()
        let result = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName, "--url", url, "-o", folder.path("out")])
        #expect(result == ToolRunner.Result(
            status: 64, stdout: "",
            stderr: "Error: \"\(url)\" is not an absolute http or https URL: \(reason)\n  See 'resumetool rebuild --help' for more information.\n"))
        #expect(try folder.contents() == [])
    }

    /// `--header` goes through the codec's one rule, as `edit --header` and `download -H` do:
    /// nothing that could smuggle a second header or a request line reaches the blob.
    @Test(arguments: [
        ("NoColon", "--header: 'NoColon' is not 'Name: value'"),
        ("", "--header: '' is not 'Name: value'"),
        (": value", "--header: '' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        ("Bad Name: x", "--header: 'Bad Name' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        ("X-Trace : 42", "--header: 'X-Trace ' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        ("X-A: 1\r\nX-B: 2", "--header: the value of X-A holds a line break or NUL"),
        ("X-A: 1\nGET / HTTP/1.1", "--header: the value of X-A holds a line break or NUL"),
        ("X-A: 1\r", "--header: the value of X-A holds a line break or NUL"),
        ("X\r\nEvil: 1", #"--header: 'X\r\nEvil' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"#),
    ])
    func malformedHeaderIsAUsageError(_ header: String, _ message: String) throws {
        let folder = try TemporaryDirectory()
        let result = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url,
                                       "--header", "X-Good: 1", "--header", header, "-o", folder.path("out")])
        #expect(result == ToolRunner.Result(status: 64, stdout: "", stderr: """
            Error: \(message)
            Usage: resumetool rebuild [--partial <FILE>] [--url <url>] [--from-task <DB>] [--task <ID>] [--session <S>] [--etag <etag>] [--last-modified <last-modified>] [--header <header> ...] [--to <format>] [--offline] [--local-path] [--output <output>]
              See 'resumetool rebuild --help' for more information.

            """))
        #expect(try folder.contents() == [])
    }

    /// A value may hold colons, quotes and any printable text; only its blanks at both ends go.
    @Test func aGoodHeaderLandsInTheBlobAsGiven() throws {
        let bytes = try EndToEnd.runForBytes(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag,
                                              "--header", "x-custom_token.v2:\t\"a: b\" ; c=d \t"])
        let resume = try ResumeData(data: bytes)
        #expect(try resume.request(.original)?.headers.map { "\($0.name)|\($0.value)" } == ["x-custom_token.v2|\"a: b\" ; c=d"])
        #expect(try resume.request(.current)?.headers.map { "\($0.name)|\($0.value)" }
            == ["x-custom_token.v2|\"a: b\" ; c=d", "Range|bytes=4096-"])
    }

    @Test(arguments: ["nwurlsession", "nwurlsession-webkit"])
    func theNetworkFrameworkFormatIsNotRebuilt(_ format: String) throws {
        let result = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--to", format])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: --to \(format) is not a container rebuild writes: use xml, binary, keyed-archive or keyed-archive-xml\n"))
    }

    @Test func missingRequiredOptions() throws {
        let noURL = try EndToEnd.run(["rebuild", "--partial", EndToEnd.partialName])
        #expect(noURL.status == 64)
        #expect(noURL.stderr.hasPrefix("Error: Missing expected argument '--url <url>'"))
        let noFrom = try EndToEnd.run(["rebuild", "--url", Self.url])
        #expect(noFrom.status == 64)
        #expect(noFrom.stderr.hasPrefix("Error: Missing expected argument '--partial <FILE>'"))
    }

    /// --from and --format were the old names of --partial and --to: hidden, still taken, not
    /// both names at once.
    @Test func theOldNamesAreHiddenAliases() throws {
        let new = try EndToEnd.runForBytes(["rebuild", "--partial", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag, "--to", "xml"])
        let old = try EndToEnd.runForBytes(["rebuild", "--from", EndToEnd.partialName, "--url", Self.url, "--etag", Self.etag, "--format", "xml"])
        #expect(old == new)
        #expect(try ResumeData(data: new).container == .xml)
        let help = try EndToEnd.run(["rebuild", "--help"])
        #expect(help.stdout.contains("--partial <FILE>") && help.stdout.contains("--to <format>"))
        #expect(!help.stdout.contains("--from <") && !help.stdout.contains("--format"))
        for (arguments, message) in [
            (["--partial", "a", "--from", "b"], "give --partial once (--from is its old name)"),
            (["--partial", "a", "--to", "xml", "--format", "xml"], "give --to once (--format is its old name)"),
        ] {
            let both = try EndToEnd.run(["rebuild", "--url", Self.url] + arguments)
            #expect(both.status == 64)
            #expect(both.stderr.hasPrefix("Error: \(message)\n"), "\(both.stderr)")
        }
    }
}
