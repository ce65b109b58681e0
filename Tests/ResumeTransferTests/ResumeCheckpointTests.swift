import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Samples")

private func sample(_ name: String) throws -> Data {
    try Data(contentsOf: samples.appendingPathComponent(name))
}

private let exampleURL = "https://downloads.example.com/releases/Example-2.4.1.dmg"
private let exampleHeaders = fields([
    "User-Agent": "Example/2.4 CFNetwork/1494.0.7 Darwin/23.4.0",
    "Accept": "*/*",
    "Accept-Language": "en-GB,en;q=0.9",
])

private func invalidResumeData(_ error: any Error, containing text: String) -> Bool {
    guard let error = error as? TransferError, case .invalidResumeData(let message) = error else { return false }
    return message.contains(text)
}

@Suite struct ResumeCheckpointTests {
    @Test(arguments: [
        ("ios9-xml.plist", ResumeDataContainer.xml),
        ("ios12-keyed-archive.resumedata", .keyedArchive),
        ("webkit-keyed-archive.plist", .keyedArchiveXML),
        ("binary-dictionary.bplist", .binary),
        ("ios11-byte-range.plist", .xml),
    ])
    func readsEverySampleContainer(name: String, container: ResumeDataContainer) throws {
        let decoded = try ResumeCheckpoint.decode(try sample(name))
        #expect(
            decoded
                == ResumeCheckpoint.Decoded(
                    checkpoint: DownloadCheckpoint(
                        originalURL: exampleURL, currentURL: exampleURL, extraHeaders: exampleHeaders, bytesReceived: 4096,
                        entityTag: "\"5f1c3e-6a2f\"", lastModified: "Tue, 17 Nov 2026 09:12:44 GMT"),
                    tempFileName: "CFNetworkDownload_Occ2S2.tmp", localPath: nil, container: container))
    }

    @Test func readsTheLocalPathOfInfoVersion1() throws {
        let decoded = try ResumeCheckpoint.decode(try sample("ios8-local-path.plist"))
        #expect(decoded.tempFileName == nil)
        #expect(
            decoded.localPath
                == "/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/CFNetworkDownload_Occ2S2.tmp")
        #expect(decoded.checkpoint.bytesReceived == 4096)
    }

    @Test func readsTheRealIOS10Dictionary() throws {
        let decoded = try ResumeCheckpoint.decode(try sample("ios10-corrupted-requests.plist"))
        let url = "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"
        #expect(decoded.checkpoint.currentURL.string == url)
        #expect(decoded.checkpoint.bytesReceived == 2_339_054)
        #expect(decoded.checkpoint.entityTag == "\"afda885a630e48ae4a3bedd3d0bc7094\"")
        #expect(decoded.checkpoint.ifRangeValidator == "\"afda885a630e48ae4a3bedd3d0bc7094\"")
    }

    @Test func writesAppleResumeDataAndReadsItBack() throws {
        let checkpoint = DownloadCheckpoint(
            originalURL: "http://127.0.0.1:1/a", currentURL: "http://127.0.0.1:1/b",
            extraHeaders: fields(["Authorization": "Bearer t"]), bytesReceived: 1234,
            entityTag: "\"e\"", lastModified: "Sun, 01 Nov 2026 10:00:01 GMT", totalLength: 9999)
        let blob = try ResumeCheckpoint.encode(checkpoint, partialPath: "/tmp/x/file.bin.part")
        let resume = try ResumeData(data: blob)
        #expect(resume.container == .keyedArchive)
        #expect(resume.infoVersion == 4)
        #expect(resume.bytesReceived == 1234)
        #expect(resume.tempFileName == "file.bin.part")
        #expect(resume.localPath == "/tmp/x/file.bin.part")
        #expect(resume.downloadURL == "http://127.0.0.1:1/b")
        #expect(resume.entityTag == "\"e\"")
        #expect(resume.serverDownloadDate == "Sun, 01 Nov 2026 10:00:01 GMT")
        let current = try #require(resume.currentRequest)
        #expect(current.urlString == "http://127.0.0.1:1/b")
        #expect(current.headers.map { "\($0.name): \($0.value)" } == ["Authorization: Bearer t", "Range: bytes=1234-"])
        #expect(resume.originalRequest?.urlString == "http://127.0.0.1:1/a")

        var expected = checkpoint
        expected.totalLength = nil  // not part of Apple's format
        #expect(
            try ResumeCheckpoint.decode(blob)
                == .init(checkpoint: expected, tempFileName: "file.bin.part", localPath: "/tmp/x/file.bin.part", container: .keyedArchive))
    }

    /// A blob whose original request names a URL the rule refuses while its current one passes:
    /// the download goes on from the current one, the original is kept as the blob recorded it
    /// (archived back unchanged), and it is no origin, so no credential is sent anywhere.
    @Test func aRefusedOriginalURLIsKeptAsRecordedButIsNoOrigin() throws {
        var resume = ResumeData(container: .keyedArchive)
        resume.bytesReceived = 10
        let token = [(name: "Authorization", value: "Bearer t")]
        try resume.setRequest(URLRequestArchive(url: try #require(URL(string: "http://127.0.0.1:1/b")), headers: token), .current)
        try resume.setRequest(URLRequestArchive(url: try #require(URL(string: "ftp://127.0.0.1:1/a")), headers: token), .original)
        let decoded = try ResumeCheckpoint.decode(try resume.encoded(as: .keyedArchive))
        #expect(decoded.checkpoint.originalURL == .refused("ftp://127.0.0.1:1/a"))
        #expect(decoded.checkpoint.currentURL.string == "http://127.0.0.1:1/b")
        #expect(RequestPlan(checkpoint: decoded.checkpoint, range: nil, ifRange: nil).headers == fields(["Accept-Encoding": "identity"]))
        let again = try ResumeCheckpoint.resumeData(decoded.checkpoint, partialPath: "/tmp/x.part")
        #expect(try again.request(.original)?.urlString == "ftp://127.0.0.1:1/a")
        #expect(try again.request(.original)?.headers.map(\.name) == ["Authorization"])
        #expect(try again.request(.current)?.headers.map(\.name) == ["Range"])
    }

    @Test func rejectsUnusableBlobs() throws {
        #expect { try ResumeCheckpoint.decode(try sample("broken-truncated.resumedata")) } throws: {
            invalidResumeData($0, containing: "byte 0x1183")
        }
        #expect { try ResumeCheckpoint.decode(try sample("newer-obscured-format.resumedata")) } throws: {
            invalidResumeData($0, containing: "not an NWURLSessionDownloadResumeInfo")
        }
        #expect { try ResumeCheckpoint.decode(Data("not a plist".utf8)) } throws: { invalidResumeData($0, containing: "1:1: ") }

        var noBytes = ResumeData(container: .xml)
        noBytes.downloadURL = "http://127.0.0.1/x"
        #expect { try ResumeCheckpoint.decode(noBytes) } throws: {
            invalidResumeData($0, containing: "NSURLSessionResumeBytesReceived is missing")
        }
        var negative = noBytes
        negative.bytesReceived = -5
        #expect { try ResumeCheckpoint.decode(negative) } throws: {
            invalidResumeData($0, containing: "NSURLSessionResumeBytesReceived is negative (-5)")
        }
        var noURL = ResumeData(container: .xml)
        noURL.bytesReceived = 1
        #expect { try ResumeCheckpoint.decode(noURL) } throws: {
            invalidResumeData($0, containing: "no URL")
        }
        var ftp = negative
        ftp.bytesReceived = 1
        ftp.downloadURL = "ftp://127.0.0.1/x"
        #expect { try ResumeCheckpoint.decode(ftp) } throws: {
            invalidResumeData($0, containing: #""ftp://127.0.0.1/x" is not an absolute http or https URL: its scheme is "ftp""#)
        }
        // The same rule as the CLI and the engine's other checks (HTTPURL): a host is required.
        for hostless in ["http:///x", "https:x", "http://", "https://:443/x"] {
            var blob = ftp
            blob.downloadURL = hostless
            #expect { try ResumeCheckpoint.decode(blob) } throws: {
                invalidResumeData($0, containing: "\"\(hostless)\" is not an absolute http or https URL: it names no host")
            }
        }
        var post = ResumeData(container: .xml)
        post.bytesReceived = 1
        let request = URLRequestArchive(url: try #require(URL(string: "http://127.0.0.1/x")), method: "POST")
        try post.setRequest(request, .current)
        #expect { try ResumeCheckpoint.decode(post) } throws: {
            invalidResumeData($0, containing: "the request is POST, only GET can be resumed")
        }
    }

    /// A blob as a device writes it (the codec's rebuilder makes the same shape), with its
    /// CFNetworkDownload partial file beside it, is finished here.
    @Test func finishesADeviceStyleBlob() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let partial = directory + "/CFNetworkDownload_Ab12Cd.tmp"
            try oneMiB.prefix(100_000).write(to: URL(fileURLWithPath: partial))
            let resume = try ResumeDataRebuilder(
                url: server.url, entityTag: server.file.etag, headers: [try HTTPHeaderField(name: "User-Agent", value: "Device/1")],
                container: .keyedArchive
            ).rebuild(fromPartialFile: partial)
            let blobPath = directory + "/device.resumedata"
            try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: blobPath))
            let task = try downloader.resume(blobAt: blobPath, to: directory + "/out.bin")
            #expect(task.partialPath == directory + "/out.bin.part")
            #expect(await task.result() == .completed)
            #expect(contents(partial) == oneMiB.prefix(100_000))
            #expect(contents(directory + "/out.bin") == oneMiB)
            let request = try #require(server.getRequests.last)
            #expect(request.headers["range"] == "bytes=100000-")
            #expect(request.headers["if-range"] == server.file.etag)
            #expect(request.headers["user-agent"] == "Device/1")
        }
    }

    @Test func resumeWithoutPartialFileStartsOverAndSaysSo() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            var resume = ResumeData(container: .keyedArchive)
            resume.downloadURL = server.url
            resume.bytesReceived = 5000
            resume.tempFileName = "CFNetworkDownload_gone.tmp"
            resume.entityTag = server.file.etag
            let blobPath = directory + "/x.resumedata"
            try resume.encoded(as: .keyedArchive).write(to: URL(fileURLWithPath: blobPath))
            let task = try downloader.resume(blobAt: blobPath, to: directory + "/out.bin")
            #expect(task.partialPath == directory + "/out.bin.part")
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/out.bin") == oneMiB)
            // The first request starts from zero (a stall on a starved machine may add a retry).
            #expect(server.getRequests.first.map { $0.headers["range"] == nil } == true)
            var warnings: [String] = []
            for await case .warning(let text) in task.events { warnings.append(text) }
            #expect(warnings == ["no partial file named by the blob is in \(ResumeCheckpoint.absolute(directory)); starting from zero"])
        }
    }
}
