import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeScan
@testable import ResumeTransfer

/// Each rule of the codec is carried out the same way by every command: the URLs `rebuild`,
/// `validate`, `download` and `resume` accept, and the file `resume`, `recover`, `validate
/// --tmp-dir`, `discard` and `scan` take for a blob's partial file.
@Suite struct RuleAgreementTests {
    /// Port 9 (discard) on the loopback: nothing listens there, so an accepted URL fails fast with
    /// a connection error, and a refused one with `invalidURL` before any connection.
    static let urls: [(url: String, accepted: Bool)] = [
        ("http://127.0.0.1:9/a.bin", true),
        ("HTTP://127.0.0.1:9/a.bin?x=1#frag", true),
        ("https://127.0.0.1:9/a.bin", true),
        ("http://user:pw@127.0.0.1:9/", true),
        ("http://[::1]:9/a", true),
        ("http://127.0.0.1:9/%20a", true),
        ("http://", false),
        ("http:/a", false),
        ("http://a b/x", false),
        ("http://127.0.0.1:9/x y", false),
        ("ftp://127.0.0.1:9/x", false),
        ("file:///etc/passwd", false),
        ("127.0.0.1:9/x", false),
        ("/x", false),
        ("", false),
        ("http://127.0.0.1:0/x", false),
        ("http://127.0.0.1:9/x\r\nX-Injected: 1", false),
        ("http://127.0.0.1:9/x\0", false),
    ]

    @Test func rebuildValidateDownloadAndResumeAgreeOnURLs() async throws {
        var configuration = fastConfiguration(retries: 0)
        configuration.connectTimeout = .seconds(2)
        try await withTemporaryDirectory { directory in
            let partial = directory + "/partial.tmp"
            try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: partial))
            try await withDownloader(configuration) { downloader in
                for (index, (url, accepted)) in Self.urls.enumerated() {
                    // rebuild
                    let rebuilt = Result { try ResumeDataRebuilder(url: url).rebuild(fromPartialFile: partial) }
                    #expect(((try? rebuilt.get()) != nil) == accepted, "rebuild \(url)")

                    // validate, on a blob holding the URL
                    var blob = ResumeData(container: .xml)
                    blob.downloadURL = url
                    blob.bytesReceived = 0
                    blob.tempFileName = "partial.tmp"
                    blob.entityTag = "\"v1\""
                    let urlFindings = ResumeDataValidator().findings(for: blob)
                        .filter { $0.code == .unsupportedScheme || $0.code == .invalidURL }
                    #expect(urlFindings.isEmpty == accepted, "validate \(url): \(urlFindings)")

                    // resume, from the same blob
                    let decoded = Result { () throws(TransferError) in try ResumeCheckpoint.decode(blob) }
                    #expect(((try? decoded.get()) != nil) == accepted, "resume \(url)")

                    // download
                    let state = await downloader.download(from: url, to: directory + "/out\(index)").result()
                    if case .failed(.invalidURL) = state {
                        #expect(!accepted, "download refused \(url)")
                    } else {
                        #expect(accepted, "download accepted \(url): \(state)")
                    }
                }
            }
        }
    }

    @Test func theLibraryTakesTheSameChecksumsAsTheCLI() async throws {
        var configuration = fastConfiguration(retries: 0)
        configuration.connectTimeout = .seconds(2)
        let valid = String(repeating: "Ab", count: 32)
        try await withTemporaryDirectory { directory in
            try await withDownloader(configuration) { downloader in
                for (index, text) in [valid, valid.lowercased(), "abc", String(repeating: "g", count: 64),
                                      String(repeating: "\u{FF11}", count: 64), ""].enumerated() {
                    let state = await downloader.download(from: "http://127.0.0.1:9/x", to: directory + "/out\(index)", expectedSHA256: text).result()
                    if SHA256Hex(text) == nil {
                        #expect(state == .failed(.invalidChecksum(text)), "\(text)")
                    } else if case .failed(.invalidChecksum) = state {
                        Issue.record("a valid digest was refused: \(text)")
                    }
                }
            }
        }
    }

    /// Blobs naming partial files every way a blob can, in one folder: a regular file, one named
    /// only by LocalPath, a folder, a link, a name with a folder part, nothing there.
    @Test func resumeRecoverValidateAndScanAgreeOnThePartialFile() async throws {
        try await withTemporaryDirectory { root in
            let container = root + "/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"
            let tmp = container + "/tmp"
            try FileManager.default.createDirectory(atPath: tmp + "/Library", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: container + "/Library", withIntermediateDirectories: true)
            try Data(repeating: 2, count: 7).write(to: URL(fileURLWithPath: tmp + "/CFNetworkDownload_A.tmp"))
            try Data(repeating: 3, count: 5).write(to: URL(fileURLWithPath: tmp + "/CFNetworkDownload_B.tmp"))
            try Data(repeating: 4, count: 3).write(to: URL(fileURLWithPath: root + "/outside.tmp"))
            try FileManager.default.createSymbolicLink(atPath: tmp + "/link.tmp", withDestinationPath: root + "/outside.tmp")
            let cases: [(name: String, temp: String?, local: String?, expected: PartialFileResolution.Verdict)] = [
                ("plain", "CFNetworkDownload_A.tmp", nil, .file(path: tmp + "/CFNetworkDownload_A.tmp", size: 7, key: ResumeDataKey.tempFileName)),
                ("local", nil, "/private/var/mobile/Containers/Data/Application/X/tmp/CFNetworkDownload_B.tmp",
                 .file(path: tmp + "/CFNetworkDownload_B.tmp", size: 5, key: ResumeDataKey.localPath)),
                ("folder", "Library", nil, .refused(path: tmp + "/Library", key: ResumeDataKey.tempFileName, reason: "it is a folder, not a regular file")),
                ("link", "link.tmp", nil, .refused(path: tmp + "/link.tmp", key: ResumeDataKey.tempFileName, reason: "it is a symbolic link, not a regular file")),
                ("climbing", "../../outside.tmp", nil, .missing(expected: nil)),
                ("missing", "CFNetworkDownload_C.tmp", nil, .missing(expected: (tmp + "/CFNetworkDownload_C.tmp", ResumeDataKey.tempFileName))),
            ]
            let blobs = container + "/Library/blobs"
            try FileManager.default.createDirectory(atPath: blobs, withIntermediateDirectories: true)
            for item in cases {
                var blob = ResumeData(container: .xml)
                blob.downloadURL = "http://127.0.0.1:9/\(item.name)"
                blob.bytesReceived = 5
                blob.entityTag = "\"v1\""
                blob.tempFileName = item.temp
                blob.localPath = item.local
                try blob.encoded().write(to: URL(fileURLWithPath: blobs + "/\(item.name).resume"))

                // The rule itself, with the look-up every command without a seam uses.
                #expect(PartialFileResolution(resume: blob, folder: tmp).resolve(PartialFileResolution.entry(at:)) == item.expected, "\(item.name)")

                // validate --tmp-dir
                let findings = ResumeDataValidator(partialFileDirectory: URL(fileURLWithPath: tmp)).findings(for: blob)
                    .filter { $0.code == .tempFileMissing || $0.code == .tempFileSize }
                switch item.expected {
                case .file(let path, let size, _):
                    #expect(findings.map(\.message) == (size == 5 ? [] : ["the partial file \(path) has \(size) bytes, more than the 5 received; resume keeps them when its last 64 KiB match the server's (it compares them before appending), else starts over"]), "\(item.name)")
                case .refused(let path, _, let reason):
                    #expect(findings.map(\.message) == ["the partial file \(path) cannot be used: \(reason)"], "\(item.name)")
                case .missing(let expected):
                    #expect(findings.map(\.message) == (expected.map { ["the partial file \($0.path) does not exist"] } ?? []), "\(item.name)")
                }
            }

            // scan: the container's tmp/ is the folder, so it pairs each blob with the same file.
            let (inventory, _) = ScanJob(roots: [root]).run()
            for item in cases {
                let found = try #require(inventory.blobs.first { $0.path.hasSuffix("/\(item.name).resume") })
                if case .file(let path, let size, _) = item.expected {
                    #expect(found.partialFile?.path == path && found.partialFile?.size == size, "scan \(item.name)")
                } else {
                    #expect(found.partialFile == nil, "scan \(item.name)")
                }
                if case .refused(let path, _, let reason) = item.expected {
                    #expect(found.findings.contains { $0.message == "the partial file \(path) cannot be used: \(reason)" }, "scan \(item.name)")
                }
            }

            // resume and recover, through the engine's own look-up (a closed port: only the choice of file matters).
            var configuration = fastConfiguration(retries: 0)
            configuration.connectTimeout = .seconds(2)
            try await withDownloader(configuration) { downloader in
                for item in cases {
                    let resumed: Result<DownloadTask, TransferError> = Result { () throws(TransferError) in
                        try downloader.resume(blobAt: blobs + "/\(item.name).resume", tmpDirectory: tmp, to: root + "/\(item.name).out")
                    }
                    switch (item.expected, resumed) {
                    case (.refused(let path, _, let reason), .failure(let error)):
                        #expect(error == .untrustedFile("\(path): \(reason)"), "resume \(item.name)")
                    case (.refused, .success):
                        Issue.record("resume \(item.name) went ahead")
                    case (_, .failure(let error)):
                        Issue.record("resume \(item.name) failed: \(error)")
                    case (_, .success(let task)):
                        if case .failed(.untrustedFile) = await task.result() { Issue.record("resume \(item.name) refused its file") }
                    }
                }
                // recover DIR: the blobs moved into the folder they name files in.
                for item in cases {
                    try FileManager.default.moveItem(atPath: blobs + "/\(item.name).resume", toPath: tmp + "/\(item.name).resume")
                }
                let recovered = try downloader.recover(in: tmp)
                #expect(recovered.count == cases.count)
                for task in recovered {
                    let name = (task.destination as NSString).lastPathComponent
                    let item = try #require(cases.first { $0.name == name })
                    let state = await task.result()
                    if case .refused(let path, _, let reason) = item.expected {
                        #expect(state == .failed(.untrustedFile("\(path): \(reason)")), "recover \(name)")
                    } else if case .failed(.untrustedFile) = state {
                        Issue.record("recover \(name) refused its file")
                    }
                }
            }
            // Nothing outside the folder, and no folder or link, was touched.
            #expect(FileManager.default.fileExists(atPath: tmp + "/Library"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/outside.tmp")) == Data(repeating: 4, count: 3))
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: tmp + "/link.tmp") == root + "/outside.tmp")
        }
    }
}
