#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// What `resume` and `download` may do with a file already at the output, through the built
/// binary: one rule for both (``OutputFileRule``). A file the run did not make is left byte for
/// byte with no request; `--force` replaces it; an input (the blob, the partial file, a bundle's
/// files) is never replaced, forced or not.
@Suite struct ResumeOutputTests {
    typealias Identity = ResumeInputTests.Identity

    static func refusal(_ label: String, _ output: String, size: Int) -> ToolResult {
        ToolResult(
            status: 1, stdout: "",
            stderr: "\(label): error: \(output) exists (a file of \(size) bytes) and this download did not make it: left as it is, nothing fetched\n"
                + "\(label): save it under another name (-o FILE), or replace the file there with --force\n")
    }

    @Test func anUnrelatedFileAtTheOutputIsLeftByteForByteBeforeAnyRequest() async throws {
        let data = testData(count: 1 << 20, seed: 81)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await ResumeInputTests.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
            let before = Identity(directory + "/notes.txt")
            let resumed = try await runToolCapturing(["resume", "device.resumedata", "--partial", partial, "-o", "notes.txt"], in: directory)
            #expect(resumed == Self.refusal("notes.txt", "notes.txt", size: 9))
            #expect(Identity(directory + "/notes.txt") == before)
            #expect(server.requests.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["device.resumedata", "notes.txt"])

            // Without -o the output is the URL's file name: the same rule.
            try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/file.bin"))
            let named = try await runToolCapturing(["resume", "device.resumedata", "--partial", partial, "--quiet"], in: directory)
            #expect(named == ToolResult(
                status: 1, stdout: "",
                stderr: "file.bin: error: file.bin exists (a file of 4 bytes) and this download did not make it: left as it is, nothing fetched\n"
                    + "file.bin: save it under another name (-o FILE), or replace the file there with --force\n"))
            #expect(contents(directory + "/file.bin") == Data("mine".utf8))
            #expect(server.requests.isEmpty)

            // --force: the file is replaced once the download is complete.
            let forced = try await runToolCapturing(["resume", "device.resumedata", "--partial", partial, "-o", "notes.txt", "--force", "--quiet"], in: directory)
            #expect(forced == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/notes.txt") == data)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(ResumeInputTests.received)-"])
        }
    }

    /// A finished `resume` run again fetches nothing and leaves its file (same inode); one that
    /// died between the final rename and the checkpoint's removal is complete, exit 0.
    @Test func aFinishedResumeRunAgainFetchesNothing() async throws {
        let data = testData(count: 1 << 20, seed: 82)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await ResumeInputTests.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let first = try await runToolCapturing(["resume", "device.resumedata", "--partial", partial, "-o", "out.bin", "--quiet"], in: directory)
            #expect(first == ToolResult(status: 0, stdout: "", stderr: ""))
            let finished = Identity(directory + "/out.bin")
            #expect(finished.data == data)
            #expect(server.requests.count == 1)
            let again = try await runToolCapturing(["resume", "device.resumedata", "--partial", partial, "-o", "out.bin"], in: directory)
            #expect(again == Self.refusal("out.bin", "out.bin", size: 1 << 20))
            #expect(Identity(directory + "/out.bin") == finished)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aCheckpointLeftBesideAFinishedFileVouchesForIt() async throws {
        let data = testData(count: 1 << 20, seed: 83)
        try await withServer(data, configuration: fastConfiguration(retries: 0)) { server, downloader, directory in
            server.script([.dropAfter(200_000)])
            let state = await downloader.download(from: server.url, to: directory + "/a.bin").result()
            #expect(isDroppedConnection(state))
            let checkpoint = try #require(FileManager.default.contents(atPath: directory + "/a.bin.resume"))
            let finished = try await runToolCapturing(["resume", "a.bin.resume", "--quiet"], in: directory)
            #expect(finished == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/a.bin") == data)
            let requests = server.requests.count
            // As if the run had died between the rename and the checkpoint's removal.
            try checkpoint.write(to: URL(fileURLWithPath: directory + "/a.bin.resume"))
            let again = try await runToolCapturing(["resume", "a.bin.resume"], in: directory)
            #expect(again == ToolResult(status: 0, stdout: "a.bin is already complete (an earlier run finished it); nothing to do\n", stderr: ""))
            #expect(server.requests.count == requests)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["a.bin"])
        }
    }

    /// The partial file and the blob as the output: refused with or without --force, each left
    /// as it was, nothing fetched.
    @Test func anInputAsTheOutputIsNeverReplaced() async throws {
        let data = testData(count: 1 << 20, seed: 84)
        try await withServer(data) { server, _, directory in
            let (folder, partial) = try await ResumeInputTests.device(data, server: server, in: directory)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let partialBefore = Identity(partial)
            let blobBefore = Identity(directory + "/device.resumedata")
            for force in [[], ["--force"]] {
                let onPartial = try await runToolCapturing(
                    ["resume", "device.resumedata", "--partial", partial, "-o", partial, "--quiet"] + force, in: directory)
                #expect(onPartial == ToolResult(
                    status: 1, stdout: "",
                    stderr: "\(partial): error: \(partial) is the partial file this run reads: an input is never replaced; save elsewhere\n"))
                let onBlob = try await runToolCapturing(
                    ["resume", "device.resumedata", "--partial", partial, "-o", "./device.resumedata", "--quiet"] + force, in: directory)
                #expect(onBlob == ToolResult(
                    status: 1, stdout: "",
                    stderr: "./device.resumedata: error: ./device.resumedata is the resume blob this run reads: an input is never replaced; save elsewhere\n"))
            }
            #expect(Identity(partial) == partialBefore)
            #expect(Identity(directory + "/device.resumedata") == blobBefore)
            #expect(server.requests.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["device.resumedata"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [ResumeInputTests.partialName])
        }
    }

    /// A Safari bundle's partial file and Info.plist as the output: refused, forced or not.
    @Test func aBundlesFilesAreNeverTheOutput() async throws {
        let data = testData(count: 1 << 20, seed: 85)
        try await withServer(data) { server, _, directory in
            let bundle = directory + "/big.bin.download"
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: false)
            let info: [String: Any] = [
                "DownloadEntryURL": server.url, "DownloadEntryProgressBytesSoFar": 300_000,
                "DownloadEntryProgressTotalToLoad": data.count, "DownloadEntryIdentifier": "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9",
            ]
            try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
            try data.prefix(300_000).write(to: URL(fileURLWithPath: bundle + "/big.bin"))
            let before = [Identity(bundle + "/Info.plist"), Identity(bundle + "/big.bin")]
            for force in [[], ["--force"]] {
                for (member, what) in [("big.bin", "the partial file"), ("Info.plist", "a file")] {
                    let output = "big.bin.download/" + member
                    let resumed = try await runToolCapturing(["resume", "big.bin.download", "-o", output, "--quiet"] + force, in: directory)
                    #expect(resumed == ToolResult(
                        status: 1, stdout: "",
                        stderr: "\(output): error: \(output) is \(what) this run reads: an input is never replaced; save elsewhere\n"))
                }
            }
            #expect([Identity(bundle + "/Info.plist"), Identity(bundle + "/big.bin")] == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: bundle).sorted() == ["Info.plist", "big.bin"])
            #expect(server.requests.isEmpty)
        }
    }

    /// `download --force` replaces a file it did not make; without it the file is left.
    @Test func downloadForceReplaces() async throws {
        let data = testData(count: 1 << 20, seed: 86)
        try await withServer(data) { server, _, directory in
            try Data("old".utf8).write(to: URL(fileURLWithPath: directory + "/out.bin"))
            let left = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--quiet"], in: directory)
            #expect(left == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == Data("old".utf8))
            #expect(server.requests.isEmpty)
            let forced = try await runToolCapturing(["download", server.url, "-o", "out.bin", "--force", "--quiet"], in: directory)
            #expect(forced == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == data)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.bin"])
        }
    }
}
