import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeReports
@testable import ResumeTransfer
@testable import resumetool

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CommandTests {
    @Test func downloadThenRerunSaysComplete() async throws {
        try await withServer(oneMiB) { server, _, directory in
            let first = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--sha256", sha256Hex(oneMiB)], in: directory)
            #expect(first.status == 0)
            #expect(first.stdout == "out.bin: done\n")
            #expect(contents(directory + "/out.bin") == oneMiB)
            let checked = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--sha256", sha256Hex(oneMiB)], in: directory)
            #expect(checked == ToolResult(status: 0, stdout: "out.bin is already complete (its SHA-256 matches); nothing to do\n", stderr: ""))
            // Issue 23: without a checksum nothing vouches for the file: it is neither called
            // complete nor replaced, and the message says so.
            let again = try await runToolCapturing(["download", server.url, "-o", "out.bin"], in: directory)
            #expect(again == ToolResult(
                status: 0, stdout: "out.bin exists and was left as it is, unchecked; nothing downloaded\n",
                stderr: "out.bin: warning: out.bin exists with no partial download beside it: left as it is, not checked against the server "
                    + "(an expected SHA-256, --sha256, would check it; remove it to download again, or rename it to out.bin.part to continue it)\n"))
            #expect(server.getRequests.count == 1)
            #expect(contents(directory + "/out.bin") == oneMiB)
        }
    }

    @Test func nameComesFromContentDispositionAndStaysInTheDirectory() async throws {
        try await withServer(oneMiB) { server, _, directory in
            server.addHeaders([("Content-Disposition", "attachment; filename=\"../../etc/evil.bin\"")])
            let result = try await runToolCapturing(["download", server.url, "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/evil.bin") == oneMiB)
        }
    }

    @Test func nameComesFromTheURLWithoutContentDisposition() async throws {
        try await withServer(oneMiB) { server, _, directory in
            let result = try await runToolCapturing(["download", server.url, "--quiet"], in: directory)
            #expect(result.status == 0)
            #expect(contents(directory + "/file.bin") == oneMiB)
        }
    }

    @Test func usageErrorsExit64() async throws {
        try await withTemporaryDirectory { directory in
            let badURL = try await runToolCapturing(["download", "ftp://127.0.0.1/x"], in: directory)
            #expect(badURL.status == 64)
            #expect(badURL.stderr.hasPrefix(#"Error: "ftp://127.0.0.1/x" is not an absolute http or https URL: its scheme is "ftp""# + "\n"))
            let badHash = try await runToolCapturing(["download", "http://127.0.0.1/x", "--sha256", "abc"], in: directory)
            #expect(badHash.status == 64)
            #expect(badHash.stderr.hasPrefix("Error: --sha256 needs 64 hex digits\n"))
        }
    }

    @Test func httpErrorExits1AndSaysWhy() async throws {
        try await withServer(oneMiB) { server, _, directory in
            server.script([.status(404, [])])
            let result = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--quiet"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("out.bin: error: the server answered HTTP 404\n"))
            #expect(!exists(directory + "/out.bin"))
        }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalPausesAndTheSameCommandContinues(signal: Int32, status: Int32) async throws {
        try await withServer(oneMiB) { server, _, directory in
            // The server stops sending after 200,000 bytes, so the signal always lands mid-transfer;
            // a long stall timeout keeps the tool waiting for it however slow a loaded machine is.
            server.script([.stallAfter(200_000)])
            let part = directory + "/out.bin.part"
            let arguments = ["download", server.url, "-o", "out.bin", "--quiet"]
            let paused = try await runToolCapturing(
                arguments + ["--stall-timeout", "600"], in: directory, signal: signal, after: .milliseconds(20),
                when: { contents(part)?.count == 200_000 })
            #expect(paused.status == status)
            #expect(paused.stderr == "out.bin: paused; run the same command again to continue (resume data in out.bin.resume)\n")
            let blob = try #require(contents(directory + "/out.bin.resume"))
            let saved = try ResumeCheckpoint.decode(blob).checkpoint.bytesReceived
            #expect(saved == 200_000)

            let finished = try await runToolCapturing(arguments, in: directory)
            #expect(finished == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=\(saved)-")
        }
    }

    /// A full disk, imitated with a file-size limit (EFBIG): a clear error, and the partial file
    /// and blob stay good for a later run.
    @Test func fileSizeLimitFailsClearlyAndTheRerunFinishes() async throws {
        try await withServer(oneMiB) { server, _, directory in
            let arguments = ["download", server.url, "-o", "out.bin", "--quiet", "--checkpoint-bytes", "65536"]
            // 1024 blocks of 512 bytes: 512 KiB.
            let limited = try await runToolCapturing(
                arguments, in: directory, shell: "trap '' XFSZ; ulimit -f 1024; exec \"$TOOL\"")
            #expect(limited.status == 1)
            #expect(limited.stderr.hasPrefix("out.bin: error: file error: write out.bin.part: File too large\n"))
            #expect(limited.stderr.hasSuffix("out.bin: the partial download is kept; run the same command again to continue\n"))
            let saved = try ResumeCheckpoint.decode(try #require(contents(directory + "/out.bin.resume"))).checkpoint.bytesReceived
            #expect(saved > 0 && saved <= 512 << 10)
            #expect(!exists(directory + "/out.bin"))

            let finished = try await runToolCapturing(arguments, in: directory)
            #expect(finished.status == 0)
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=\(saved)-")
        }
    }

    /// A server that answers a range with the whole file is said to ignore ranges, not to have
    /// changed its file (Python's http.server does so); the JSON event names the reason too.
    @Test func aServerIgnoringRangesIsSaidSo() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration(retries: 0)) { server, _, directory in
            for json in [false, true] {
                server.script([.dropAfter(200_000)])
                let first = try await runToolCapturing(["download", server.url, "-o", "a.bin", "--quiet", "--retries", "0"], in: directory)
                #expect(first.status == 1)
                server.script([.ignoreRange])
                let second = try await runToolCapturing(["download", server.url, "-o", "a.bin"] + (json ? ["--json"] : []), in: directory)
                #expect(second.status == 0)
                if json {
                    let restart = second.stdout.split(separator: "\n").filter { $0.contains(#""event":"restart""#) }
                    #expect(restart.count == 1 && restart[0].hasSuffix(#","reason":"ranges-ignored"}"#), "\(second.stdout)")
                } else {
                    #expect(second.stderr.contains("a.bin: the server ignores byte ranges (it sent the whole file); starting over\n"))
                }
                #expect(contents(directory + "/a.bin") == oneMiB)
                try FileManager.default.removeItem(atPath: directory + "/a.bin")
            }
        }
    }

    /// An unresolvable name ends the command at once, as curl's "Could not resolve host" does:
    /// one line, no retries, nothing left on disk.
    @Test func anUnresolvableHostIsFinalAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await runToolCapturing(["download", "http://no-such-host.invalid/f.bin", "-o", "f.bin"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("f.bin: error: connection failed: cannot resolve no-such-host.invalid: "), "\(result.stderr)")
            #expect(!result.stderr.contains("retry"))
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        }
    }

    @Test func resumeAndRecoverCommands() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration(retries: 0)) { server, downloader, directory in
            for name in ["a.bin", "b.bin"] {
                server.script([.dropAfter(200_000)])
                let state = await downloader.download(from: server.url, to: directory + "/" + name).result()
                #expect(isDroppedConnection(state))
            }
            let resumed = try await runToolCapturing(["resume", "a.bin.resume", "--quiet"], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/a.bin") == oneMiB)

            let recovered = try await runToolCapturing(["recover", "."], in: directory)
            #expect(recovered.status == 0)
            #expect(recovered.stdout == "./b.bin: done\n")
            // Not a terminal and several downloads at once: a plain progress line now and then.
            for line in recovered.stderr.split(separator: "\n") {
                #expect(line.hasPrefix("./b.bin  ") && line.contains("/ 1.0 MiB"), "\(line)")
            }
            #expect(contents(directory + "/b.bin") == oneMiB)
            let nothing = try await runToolCapturing(["recover", "."], in: directory)
            #expect(nothing == ToolResult(status: 0, stdout: ".: nothing to recover\n", stderr: ""))
            let missing = try await runToolCapturing(["resume", "missing.resume"], in: directory)
            // An input that cannot be read is 2 in every command.
            #expect(missing == ToolResult(status: 2, stdout: "", stderr: "missing.resume: error: no such file\n"))
        }
    }

    /// A blob's request header goes through the same rule as -H: one with a CR/LF is refused when
    /// the blob is read, before any connection, and the message shows it escaped.
    @Test func aBlobHeaderWithALineBreakIsRefused() async throws {
        try await withServer(oneMiB) { server, _, directory in
            var resume = ResumeData(container: .keyedArchive)
            resume.downloadURL = server.url
            resume.bytesReceived = 0
            let headers = [(name: "X-Token\r\nInjected", value: "1"), (name: "X-Note", value: "a\r\nInjected: 1")]
            for (index, header) in headers.enumerated() {
                try resume.setRequest(URLRequestArchive(url: try #require(URL(string: server.url)), headers: [header]), .original)
                try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: directory + "/bad\(index).resume"))
            }
            let badName = try await runToolCapturing(["resume", "bad0.resume", "--quiet"], in: directory)
            #expect(badName.status == 1)
            #expect(badName.stderr.contains(#"a request header: 'X-Token\r\nInjected' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"#), "\(badName)")
            let badValue = try await runToolCapturing(["resume", "bad1.resume", "--quiet"], in: directory)
            #expect(badValue.status == 1)
            #expect(badValue.stderr.contains("a request header: the value of X-Note holds a line break or NUL\n"), "\(badValue)")
            #expect(server.requests.isEmpty)
        }
    }
}

@Suite struct FileNameAndReporterTests {
    @Test func fileNames() {
        #expect(DownloadFileName.choose(url: "http://h/a/b/c.tar.gz?x=1") == "c.tar.gz")
        #expect(DownloadFileName.choose(url: "http://h/") == "download")
        #expect(DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=\"r.pdf\"") == "r.pdf")
        #expect(DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=../../../etc/passwd") == "passwd")
        #expect(DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=\"..\"") == "x")
        #expect(DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=\"a\\\\..\\\\b.txt\"") == "b.txt")
        #expect(DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=\".hidden\"") == "hidden")
        #expect(
            DownloadFileName.choose(url: "http://h/x", contentDisposition: "attachment; filename=\"a.txt\"; filename*=UTF-8''%C3%A9t%C3%A9.txt")
                == "été.txt")
        #expect(DownloadFileName.choose(url: "http://h/%2E%2E") == "download")
    }

    @Test func progressLines() {
        let progress = DownloadProgress(bytesWritten: 12_897_485, totalBytes: 28_311_552, bytesPerSecond: 89_338_675, secondsRemaining: 2.2)
        #expect(DownloadConsoleText.line(label: "f", progress) == "f   45%  12.3 MiB / 27.0 MiB  85.2 MiB/s  ETA 0:03")
        let unknown = DownloadProgress(bytesWritten: 512, totalBytes: nil, bytesPerSecond: 0, secondsRemaining: nil)
        #expect(DownloadConsoleText.line(label: "f", unknown) == "f  512 B  0 B/s")
        #expect(ByteCount.short(1536) == "1.5 KiB")
        #expect(ByteCount.short(3 << 30) == "3.0 GiB")
        #expect(ByteCount.short(5 << 40) == "5.0 TiB")
    }

    /// The console text is pure: a bar is redrawn in place on a terminal and ended by the next
    /// line; elsewhere progress is a plain line at most every interval.
    @Test func consoleTextFollowsTheBar() {
        let start = ContinuousClock.now
        let progress = DownloadEvent.progress(DownloadProgress(bytesWritten: 512, totalBytes: nil, bytesPerSecond: 0, secondsRemaining: nil))
        var terminal = DownloadConsoleText(label: "a\u{1B}b", interactive: true)
        #expect(terminal.text(for: progress, at: start) == "\r\u{1B}[2Ka\\u{1b}b  512 B  0 B/s")
        #expect(terminal.end() == "\n")
        #expect(terminal.text(for: .warning("w"), at: start) == "\na\\u{1b}b: warning: w\n")
        #expect(terminal.end() == nil)
        #expect(terminal.text(for: .state(.running), at: start) == nil)

        var plain = DownloadConsoleText(label: "f", interactive: false)
        #expect(plain.text(for: progress, at: start) == "f  512 B  0 B/s\n")
        #expect(plain.text(for: progress, at: start + .seconds(4)) == nil)
        #expect(plain.text(for: progress, at: start + .seconds(5)) == "f  512 B  0 B/s\n")
        #expect(plain.text(for: .restarted(.rangesIgnored), at: start) == "f: the server ignores byte ranges (it sent the whole file); starting over\n")
        #expect(plain.end() == nil)
    }

    /// `--json` lines: progress at most every 0.5 s, `done` with the last bytes seen, heads left out.
    @Test func jsonLinesAreThrottledAndEndWithTheLastCount() throws {
        let start = ContinuousClock.now
        let url = try HTTPURL(validating: "http://h/f")
        var lines = TransferJSONLines(url: url, file: "f")
        let text = { (bytes: [UInt8]?) in bytes.map { String(decoding: $0, as: UTF8.self) } }
        let progress = { (count: Int64) in DownloadEvent.progress(DownloadProgress(bytesWritten: count, totalBytes: 10, bytesPerSecond: 1.4, secondsRemaining: nil)) }
        #expect(text(lines.start()) == "{\"event\":\"start\",\"url\":\"http://h/f\",\"file\":\"f\"}\n")
        #expect(text(lines.line(for: progress(1), at: start)) == "{\"event\":\"progress\",\"url\":\"http://h/f\",\"file\":\"f\",\"bytes\":1,\"total\":10,\"rate\":1.0}\n")
        #expect(lines.line(for: progress(5), at: start + .milliseconds(499)) == nil)
        #expect(lines.line(for: .responseHead(status: 200, headers: []), at: start) == nil)
        #expect(text(lines.line(for: .state(.completed), at: start)) == "{\"event\":\"done\",\"url\":\"http://h/f\",\"file\":\"f\",\"bytes\":5}\n")
        var refused = TransferJSONLines(url: nil, file: "g")
        #expect(text(refused.line(for: .state(.paused), at: start)) == "{\"event\":\"paused\",\"url\":\"\",\"file\":\"g\"}\n")
    }

    /// Upload and download say a retry with one renderer: the same words, the same delay
    /// format, the label and the reason escaped (a file name or a server's words may hold
    /// terminal controls or a bidi override).
    @Test func retryLinesAreOneRenderer() {
        let expected = "f: no data arrived for too long; retry 2 in 1.5s\n"
        #expect(TransferLineText.retrying(label: "f", reason: "\(TransferError.stalled)", attempt: 2, delay: .milliseconds(1500)) == expected)
        #expect(UploadConsoleText.text(for: .retrying(attempt: 2, delay: .milliseconds(1500), reason: .stalled), file: "f") == expected)
        #expect(TransferLineText.retrying(label: "a\u{202E}b\u{1B}[2J", reason: "x\ny", attempt: 1, delay: .seconds(30))
            == "a\\u{202e}b\\u{1b}[2J: x\\ny; retry 1 in 30.0s\n")
        #expect(TransferLineText.seconds(.zero) == "0.0s")
        #expect(TransferLineText.seconds(.milliseconds(50)) == "0.1s")
        #expect(TransferLineText.seconds(.seconds(86_400 * 365)) == "31536000.0s")
        #expect(UploadConsoleText.text(for: .notResumable("no \u{202E}Location"), file: "f\u{7}") == "f\\u{7}: not resumable: no \\u{202e}Location\n")
    }

    /// The last line of an upload: the bytes as sent when they are the file, both counts when a
    /// run finished an earlier one's upload or resent bytes, and the resume URL when it took the
    /// rest to another origin (scheme, host or port), escaped.
    @Test func theLastLineOfAnUpload() throws {
        let url = try HTTPURL(validating: "http://a.example/files")
        func line(_ sent: Int64, _ resumptions: Int, at resume: String?) throws -> String {
            let continued = try resume.map { try HTTPURL(validating: $0) }
            let outcome = ResumableUploader.Outcome(status: 201, bytesSent: sent, resumptions: resumptions, fileSize: 3_000_000, continuedAt: continued)
            return UploadConsoleText.finished(file: "f\u{7}", url: url, outcome: outcome)
        }
        #expect(try line(3_000_000, 0, at: nil) == "f\\u{7}: uploaded to http://a.example/files (HTTP 201, 3000000 bytes sent)\n")
        #expect(try line(1_000, 1, at: "http://a.example/up/1")
            == "f\\u{7}: uploaded to http://a.example/files (HTTP 201, 1000 of 3000000 bytes sent in this run, continued 1 time)\n")
        #expect(try line(6_000_000, 2, at: "http://a.example:80/up/1")
            == "f\\u{7}: uploaded to http://a.example/files (HTTP 201, 6000000 bytes sent for a 3000000-byte file, resent ones included, continued 2 times)\n")
        for other in ["http://b.example/up/1", "http://a.example:8080/up/1", "https://a.example/up/1"] {
            #expect(try line(3_000_000, 1, at: other)
                == "f\\u{7}: uploaded to http://a.example/files, the rest to \(other) (the server's resume URL, on another origin) (HTTP 201, 3000000 bytes sent, continued 1 time)\n")
        }
    }

    /// A word of a hint: as it is when no shell treats it specially, else single-quoted with
    /// its quotes closed and reopened; controls escaped first, so a hint never rewrites the terminal.
    @Test func hintsQuoteEachWordForTheShell() {
        #expect(ShellWord.quoted("photo.bin") == "photo.bin")
        #expect(ShellWord.quoted("http://h:8080/a?b=1") == "'http://h:8080/a?b=1'")
        #expect(ShellWord.quoted("/tmp/a-b_c/d.e,f+g@h%i=j") == "/tmp/a-b_c/d.e,f+g@h%i=j")
        #expect(ShellWord.quoted("") == "''")
        #expect(ShellWord.quoted("my photo.bin") == "'my photo.bin'")
        #expect(ShellWord.quoted("it's.bin") == #"'it'\''s.bin'"#)
        #expect(ShellWord.quoted("'") == #"''\'''"#)
        #expect(ShellWord.quoted("$(rm -rf ~)`x`") == "'$(rm -rf ~)`x`'")
        #expect(ShellWord.quoted("a\u{1B}[2Jb\n") == #"'a\u{1b}[2Jb\n'"#)
        #expect(ShellWord.quoted("café") == "'café'")
    }

    /// Numbers a hostile server can cause (a total near 2^63) or a clock can (a rate of infinity,
    /// a negative estimate) print plainly instead of trapping in Int64 arithmetic or conversion.
    @Test func progressLinesWithHostileNumbers() {
        let huge = DownloadProgress(bytesWritten: Int64.max - 1, totalBytes: Int64.max, bytesPerSecond: .infinity, secondsRemaining: -1e300)
        #expect(DownloadConsoleText.line(label: "f", huge) == "f  100%  8388608.0 TiB / 8388608.0 TiB  0 B/s")
        let nan = DownloadProgress(bytesWritten: 10, totalBytes: 5, bytesPerSecond: .nan, secondsRemaining: .nan)
        #expect(DownloadConsoleText.line(label: "f", nan) == "f  100%  10 B / 5 B  0 B/s")
        let negative = DownloadProgress(bytesWritten: -5, totalBytes: 100, bytesPerSecond: -3, secondsRemaining: 1e300)
        #expect(DownloadConsoleText.line(label: "f", negative) == "f    0%  -5 B / 100 B  0 B/s")
    }
}
