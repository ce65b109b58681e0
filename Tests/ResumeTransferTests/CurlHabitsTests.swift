import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// curl's habits on `download` and `resume`: `-o -` to standard output, `-H` and
/// `--user-agent` on `resume`, and a login from `-u` or a netrc file, which like every
/// credential goes only to the origin the download started at.
@Suite struct CurlHabitsTests {
    /// Text, so standard output compares as a string.
    static let data = Data(String(repeating: "0123456789abcdef", count: 4096).utf8)

    /// `directory/app.resumedata` and its partial file, 1000 bytes of `server`'s file.
    static func blob(for server: TestServer, in directory: String) throws {
        let partial = directory + "/CFNetworkDownload_P.tmp"
        try Self.data.prefix(1000).write(to: URL(fileURLWithPath: partial))
        let rebuilder = ResumeDataRebuilder(url: server.url, entityTag: server.file.etag, lastModified: nil, headers: [])
        try rebuilder.rebuild(fromPartialFile: partial).encoded().write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
    }

    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func downloadToStandardOutput() async throws {
        try await withServer(Self.data) { server, _, directory in
            try FileManager.default.createDirectory(atPath: directory + "/tmp", withIntermediateDirectories: false)
            let result = try await runToolCapturing(["download", server.url, "-o", "-", "--quiet"], in: directory,
                                                    environment: ["TMPDIR": directory + "/tmp"])
            #expect(result == ToolResult(status: 0, stdout: String(decoding: Self.data, as: UTF8.self), stderr: ""))
            // Nothing beside it, and the staging folder is gone.
            #expect(Self.names(in: directory) == ["tmp"])
            #expect(Self.names(in: directory + "/tmp") == [])
        }
    }

    /// The staging folder is made under TMPDIR; one that is not there is said, with the folder
    /// and the option, before any request.
    @Test func aTemporaryFolderThatIsNotThereIsSaidBeforeAnyRequest() async throws {
        try await withServer(Self.data) { server, _, directory in
            let result = try await runToolCapturing(["download", server.url, "-o", "-", "--quiet"], in: directory,
                                                    environment: ["TMPDIR": directory + "/gone"])
            #expect(result == ToolResult(status: 1, stdout: "", stderr: "\(directory)/gone: error: cannot make a folder for -o -: No such file or directory\n"))
            #expect(server.getRequests.isEmpty)
            #expect(Self.names(in: directory) == [])
        }
    }

    @Test func resumeToStandardOutputWithHeaders() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.blob(for: server, in: directory)
            let result = try await runToolCapturing(
                ["resume", "app.resumedata", "-o", "-", "--quiet", "-H", "X-Token: t1", "--user-agent", "tool/1"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: String(decoding: Self.data, as: UTF8.self), stderr: ""))
            #expect(Self.names(in: directory) == ["CFNetworkDownload_P.tmp", "app.resumedata"])
            let request = try #require(server.getRequests.first)
            #expect(request.headers["range"] == "bytes=1000-")
            #expect(request.headers["x-token"] == "t1")
            #expect(request.headers["user-agent"] == "tool/1")
        }
    }

    /// A login goes to the origin given, never to the one a redirect names.
    @Test func aLoginStaysWithTheOrigin() async throws {
        let other = try await TestServer.start(serving: Self.data)
        try await withServer(Self.data) { server, _, directory in
            server.script([.status(302, [("Location", other.url)])])
            let result = try await runToolCapturing(["download", server.url, "-o", "a.bin", "--quiet", "-u", "user:secret"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/a.bin") == Self.data)
            #expect(server.getRequests.first?.headers["authorization"] == "Basic dXNlcjpzZWNyZXQ=")
            #expect(other.getRequests.first != nil)
            #expect(other.getRequests.allSatisfy { $0.headers["authorization"] == nil })
        }
        await other.stop()
    }

    @Test func aLoginFromANetrcFile() async throws {
        try await withServer(Self.data) { server, _, directory in
            let host = try #require(URL(string: server.url)?.host)
            try Data("""
                machine other.example.com login nobody password wrong
                macdef init
                login x password y

                machine \(host)
                    login user password secret
                default login anonymous password guest
                """.utf8).write(to: URL(fileURLWithPath: directory + "/netrc"))
            let result = try await runToolCapturing(["download", server.url, "-o", "a.bin", "--quiet", "--netrc-file", "netrc"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(server.getRequests.first?.headers["authorization"] == "Basic dXNlcjpzZWNyZXQ=")
            // On resume too, for the blob's host.
            try Self.blob(for: server, in: directory)
            let resumed = try await runToolCapturing(["resume", "app.resumedata", "-o", "b.bin", "--quiet", "--netrc-file", "netrc"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(server.getRequests.last?.headers["authorization"] == "Basic dXNlcjpzZWNyZXQ=")
            let missing = try await runToolCapturing(["download", server.url, "-o", "c.bin", "--netrc-file", "nope"], in: directory)
            #expect(missing == ToolResult(status: 2, stdout: "", stderr: "nope: error: no such file\n"))
        }
    }

    /// -v prints both heads on standard error, the credentials masked.
    @Test func verboseShowsTheHeadsWithoutTheCredentials() async throws {
        try await withServer(Self.data) { server, _, directory in
            let result = try await runToolCapturing(
                ["download", server.url, "-o", "a.bin", "-v", "-u", "user:secret", "-H", "Cookie: session=abc", "-H", "X-App: 1"],
                in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == "a.bin: done\n")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.contains("> GET \(server.url)"), "\(result.stderr)")
            #expect(lines.contains("> Authorization: Basic <hidden>"))
            #expect(lines.contains("> Cookie: <hidden>"))
            #expect(lines.contains("> X-App: 1"))
            #expect(lines.contains("< 200"))
            #expect(lines.contains("< ETag: \(server.file.etag)"))
            #expect(!result.stderr.contains("dXNlcjpzZWNyZXQ=") && !result.stderr.contains("session=abc"))
            // What was sent is the real thing.
            #expect(server.getRequests.first?.headers["authorization"] == "Basic dXNlcjpzZWNyZXQ=")
        }
    }

    /// A password in the URL is sent (Basic, as curl sends it) but never printed: not in `-v`'s
    /// request line, not in a JSON line; the user is kept so the reader knows who asked.
    @Test func aPasswordInTheURLIsNeverPrinted() async throws {
        try await withServer(Self.data) { server, _, directory in
            let url = server.url.replacingOccurrences(of: "http://", with: "http://ann:s3cr3t@")
            let shown = server.url.replacingOccurrences(of: "http://", with: "http://ann:***@")
            let verbose = try await runToolCapturing(["download", url, "-o", "a.bin", "-v"], in: directory)
            #expect(verbose.status == 0)
            #expect(verbose.stderr.split(separator: "\n").contains("> GET \(shown)"), "\(verbose.stderr)")
            let json = try await runToolCapturing(["download", url, "-o", "b.bin", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(json.stdout.hasPrefix("{\"event\":\"start\",\"url\":\"\(shown.replacingOccurrences(of: "/", with: "\\/"))\",\"file\":\"b.bin\"}\n")
                || json.stdout.hasPrefix("{\"event\":\"start\",\"url\":\"\(shown)\",\"file\":\"b.bin\"}\n"), "\(json.stdout)")
            for output in [verbose.stdout, verbose.stderr, json.stdout, json.stderr] { #expect(!output.contains("s3cr3t")) }
            #expect(server.getRequests.allSatisfy { $0.headers["authorization"] == "Basic YW5uOnMzY3IzdA==" })
        }
    }

    /// curl's spellings work: `--retry`, `-C -`, `-L`, `-f`/`--fail`, `--max-redirs`, `--max-time`.
    @Test func curlsSpellingsAreAccepted() async throws {
        try await withServer(Self.data) { server, _, directory in
            server.script([.status(302, [("Location", server.url)])])
            let result = try await runToolCapturing(
                ["download", server.url, "-o", "a.bin", "--retry", "3", "-C", "-", "-L", "-f", "--fail", "--location", "--max-redirs", "1", "--max-time", "60", "--quiet"],
                in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/a.bin") == Self.data)
            // --max-redirs 0: the first redirect is one too many.
            server.script([.status(302, [("Location", server.url)])])
            let bounded = try await runToolCapturing(["download", server.url, "-o", "b.bin", "--max-redirs", "0", "--retry", "0"], in: directory)
            #expect(bounded.status == 1)
            #expect(bounded.stderr.hasPrefix("b.bin: error: more than 0 redirects\n"), "\(bounded.stderr)")
            // A 404 fails, its body never kept, as with -f or without.
            server.script([.status(404, [])])
            let missing = try await runToolCapturing(["download", server.url, "-o", "c.bin", "-f", "--retry", "0"], in: directory)
            #expect(missing.status == 1)
            #expect(!FileManager.default.fileExists(atPath: directory + "/c.bin"))
        }
    }

    /// `--max-time 3` against a server that never answers: an error long before the stall
    /// timeout, as a stall ends.
    @Test func maxTimeEndsASilentServersTransfer() async throws {
        let server = try await RawServer.start([[.hold]])
        try await withTemporaryDirectory { directory in
            let result = try await runToolCapturing(["download", server.url, "-o", "x.bin", "--max-time", "3"], in: directory)
            // The process's own lifetime: a clock read by this task measured how long the
            // cooperative pool kept it waiting (229 s once, under a full suite on CI).
            let took = result.elapsed
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("x.bin: error: the download took longer than the 3 s allowed\n"), "\(result.stderr)")
            // 3.2 s when run alone here; the bound leaves room for a suite's load and is still far
            // below the 30 s stall timeout that would end the transfer without --max-time.
            #expect(took < .seconds(25), "\(took)")
            #expect(took >= .seconds(3), "\(took)")
        }
        await server.stop()
    }

    @Test func helpGroupsCurlsSpellings() async throws {
        try await withTemporaryDirectory { directory in
            for command in ["download", "resume"] {
                let help = try await runToolCapturing([command, "--help"], in: directory)
                #expect(help.status == 0)
                let group = try #require(help.stdout.range(of: "FOR CURL USERS:"), "\(help.stdout)")
                let after = help.stdout[group.upperBound...]
                for option in ["--retry <N>", "-C <->", "--max-time <S>", "-L, --location", "--max-redirs <N>", "-f, --fail"] {
                    #expect(after.contains(option), "\(command) --help lacks \(option) in its curl group")
                }
            }
        }
    }

    @Test(arguments: [
        (["download", "https://example.com/a", "-u", "nocolon"], "-u takes USER:PASSWORD"),
        (["download", "https://example.com/a", "-u", "a:b", "--netrc"], "give one of -u, --netrc and --netrc-file"),
        (["download", "https://example.com/a", "-u", "a:b", "-H", "Authorization: Bearer x"],
         "-H 'Authorization: …' and a login (-u, --netrc) cannot be used together"),
        (["download", "https://example.com/a", "-o", "-", "--json"], "-o - and --json cannot be used together: both print on standard output"),
        (["resume", "app.resumedata", "-o", "-", "--json"], "-o - and --json cannot be used together: both print on standard output"),
        (["resume", "app.resumedata", "-H", "X: 1\r\nY: 2"], "-H: the value of X holds a line break or NUL"),
        (["download", "https://example.com/a", "-C", "100"], "-C takes only '-' (continuing from the partial file is the default; a byte offset is not taken)"),
        (["download", "https://example.com/a", "--retry", "101"], "--retry must be 0 to 100"),
        (["download", "https://example.com/a", "--retry", "3", "--retries", "2"], "--retries 2 and --retry 3 say different things: give one"),
        (["download", "https://example.com/a", "--max-time", "0"], "--max-time must be more than 0 and at most 86400 seconds"),
        (["resume", "app.resumedata", "--max-redirs", "51"], "--max-redirs must be 0 to 50"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) async throws {
        try await withTemporaryDirectory { directory in
            let result = try await runToolCapturing(arguments, in: directory)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
        }
    }
}
