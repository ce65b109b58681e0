import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

/// The engine finishes Network-framework blobs (spec §6): no byte count, so the trusted partial
/// file's size is the offset; the validator comes from the archived response.
@Suite struct NetworkResumeTests {
    /// A Network-framework blob for `url` whose response carries `headers`.
    static func blob(
        url: String, headers: [(name: String, value: String)], tempFileName: String?, localPath: String? = nil,
        layout: NetworkResumeLayout = .flat, container: ResumeDataContainer = .networkFramework
    ) throws -> Data {
        var resume = ResumeData(container: container)
        resume.networkLayout = layout
        let requestURL = try #require(URL(string: url))
        try resume.setRequest(URLRequestArchive(url: requestURL, headers: [("User-Agent", "Safari/1")]), .current)
        try resume.setRequest(URLRequestArchive(url: requestURL, headers: [("User-Agent", "Safari/1")]), .original)
        let response = ArchivedURLResponse(url: url, statusCode: 200, headers: headers, mimeType: nil, date: Date(timeIntervalSinceReferenceDate: 0))
        resume.entries[ResumeDataKey.response] = .data(try response.archiveData())
        resume.tempFileName = tempFileName
        resume.localPath = localPath
        resume.entries["taskIdentifier"] = 4
        return try resume.encoded()
    }

    @Test(arguments: NetworkResumeLayout.allCases)
    func continuesFromThePartialFilesSizeWithTheResponsesETag(layout: NetworkResumeLayout) async throws {
        try await withServer(oneMiB) { server, _, directory in
            let name = "CFNetworkDownload_nw1234.tmp"
            try oneMiB.prefix(100_000).write(to: URL(fileURLWithPath: directory + "/" + name))
            let data = try Self.blob(url: server.url, headers: [("ETag", server.file.etag)], tempFileName: name, layout: layout)
            try data.write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
            let result = try await runToolCapturing(["resume", "app.resumedata", "-o", "out.bin", "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            let request = try #require(server.getRequests.last)
            #expect(server.getRequests.count == 1)
            #expect(request.headers["range"] == "bytes=100000-")
            #expect(request.headers["if-range"] == server.file.etag)
            #expect(request.headers["user-agent"] == "Safari/1")
        }
    }

    @Test func withOnlyLastModifiedTheOverlapIsProvedFirst() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let name = "CFNetworkDownload_nw5678.tmp"
            try oneMiB.prefix(100_000).write(to: URL(fileURLWithPath: directory + "/" + name))
            let data = try Self.blob(url: server.url, headers: [("Last-Modified", server.file.lastModified)], tempFileName: name)
            let task = try downloader.resume(resumeData: data, folder: directory, to: directory + "/out.bin")
            // The device's file is an input: the download goes on in a copy beside the output.
            #expect(task.partialPath == directory + "/out.bin.part")
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/" + name) == oneMiB.prefix(100_000))
            #expect(contents(directory + "/out.bin") == oneMiB)
            // 64 KiB before the partial file's end are asked for again and compared.
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=34464-"])
        }
    }

    @Test func webKitsLocalPathInsideTheFolderIsUsed() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            try oneMiB.prefix(200_000).write(to: URL(fileURLWithPath: directory + "/nw.download"))
            let data = try Self.blob(url: server.url, headers: [("ETag", server.file.etag)], tempFileName: "CFNetworkDownload_ignored.tmp",
                                     localPath: directory + "/nw.download", layout: .nested, container: .networkFrameworkWebKit)
            let task = try downloader.resume(resumeData: data, folder: directory, to: directory + "/out.bin")
            #expect(task.partialPath == directory + "/out.bin.part")
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/nw.download") == oneMiB.prefix(200_000))
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=200000-"])
        }
    }

    @Test func aFileURLOutsideTheFolderIsIgnoredAndTheDownloadStartsOver() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            try await withTemporaryDirectory { elsewhere in
                let victim = elsewhere + "/precious.bin"
                try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
                let data = try Self.blob(url: server.url, headers: [("ETag", server.file.etag)], tempFileName: nil, localPath: victim)
                let task = try downloader.resume(resumeData: data, folder: directory, to: directory + "/out.bin")
                #expect(task.partialPath == directory + "/out.bin.part")
                #expect(await task.result() == .completed)
                #expect(contents(directory + "/out.bin") == oneMiB)
                #expect(contents(victim) == Data("keep me".utf8))
                #expect(server.getRequests.map { $0.headers["range"] } == [nil])
                var warnings: [String] = []
                for await case .warning(let text) in task.events { warnings.append(text) }
                // Only the file name counts, looked for in the folder: there is none of that name.
                #expect(warnings == [
                    "no partial file named by the blob is in \(ResumeCheckpoint.absolute(directory)); starting from zero",
                ])
            }
        }
    }

    @Test func recoverContinuesANetworkFrameworkBlobFromItsFilesSize() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let name = "CFNetworkDownload_rec.tmp"
            try oneMiB.prefix(300_000).write(to: URL(fileURLWithPath: directory + "/" + name))
            let data = try Self.blob(url: server.url, headers: [("ETag", server.file.etag)], tempFileName: name, layout: .nested)
            try data.write(to: URL(fileURLWithPath: directory + "/big.bin.resume"))
            let tasks = try downloader.recover(in: directory)
            #expect(tasks.count == 1)
            #expect(tasks.first?.partialPath == directory + "/" + name)
            #expect(await tasks.first?.result() == .completed)
            #expect(contents(directory + "/big.bin") == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=300000-"])
        }
    }

    @Test func decodingTakesTheValidatorFromTheResponse() throws {
        let data = try Self.blob(url: "https://example.com/f", headers: [("ETag", "\"s\""), ("Last-Modified", "Sun, 01 Nov 2026 10:00:01 GMT")],
                                 tempFileName: "t.tmp")
        let decoded = try ResumeCheckpoint.decode(data)
        #expect(decoded.offsetFromPartialFile)
        #expect(decoded.checkpoint.bytesReceived == 0)
        #expect(decoded.checkpoint.entityTag == "\"s\"")
        #expect(decoded.checkpoint.lastModified == "Sun, 01 Nov 2026 10:00:01 GMT")
        #expect(decoded.tempFileName == "t.tmp")
        #expect(decoded.container == .networkFramework)
        #expect(decoded.checkpoint.currentURL.string == "https://example.com/f")
    }
}
