import Foundation
import Testing

/// `resume NAME.download -o OUT` through the built binary against nginx: a Safari
/// bundle's download finished by the engine, byte for byte; and, the modern layout keeping no
/// validator, a partial file that no longer matches the server's file is never spliced: the
/// engine's overlap check finds the difference and the file is fetched whole.
@Suite(.serialized) struct SafariBundleResumeTests {
    static let served = testData(count: (2 << 20) + 123, seed: 71)

    /// A modern-layout bundle (binary Info.plist, no validator) for `url`, holding `partial`.
    private func makeBundle(in directory: String, url: String, partial: Data) throws {
        let bundle = directory + "/big.bin.download"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let info: [String: Any] = [
            "DownloadEntryURL": url,
            "DownloadEntryProgressBytesSoFar": partial.count,
            "DownloadEntryProgressTotalToLoad": Self.served.count,
            "DownloadEntryIdentifier": "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9",
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
        try partial.write(to: URL(fileURLWithPath: bundle + "/big.bin"))
    }

    @Test func aBundleIsFinishedByteForByte() async throws {
        try await withNginx { nginx, directory in
            try publish(Self.served, as: "big.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            let partial = Self.served.prefix(1 << 20)
            try makeBundle(in: directory, url: nginx.url("probe/big.bin"), partial: partial)
            let result = try await runToolCapturing(["resume", "big.bin.download", "-o", "out.bin", "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == Self.served)
            // The bundle is evidence: left as it was.
            #expect(contents(directory + "/big.bin.download/big.bin") == partial)
            // One ranged GET, from before the partial file's end: the overlap the engine proves.
            let log = try String(contentsOfFile: directory + "/nginx/probe.log", encoding: .utf8)
            let gets = log.split(separator: "\n").filter { $0.hasPrefix("GET ") }
            #expect(gets.count == 1)
            #expect(gets.first?.hasSuffix("|bytes=\((1 << 20) - (64 << 10))-") == true)
        }
    }

    @Test func aChangedServerFileIsFetchedWholeNeverSpliced() async throws {
        try await withNginx { nginx, directory in
            try publish(Self.served, as: "big.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            // The partial file of another version of the file: its last bytes differ.
            var partial = Data(Self.served.prefix(1 << 20))
            partial[partial.count - 100] ^= 0xFF
            try makeBundle(in: directory, url: nginx.url("probe/big.bin"), partial: partial)
            let result = try await runToolCapturing(["resume", "big.bin.download", "-o", "out.bin", "--quiet"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(contents(directory + "/out.bin") == Self.served)
            #expect(contents(directory + "/big.bin.download/big.bin") == partial)
        }
    }

    @Test func aBundleWithoutAPartialFileIsAnUnreadableInput() async throws {
        try await withNginx { nginx, directory in
            try makeBundle(in: directory, url: nginx.url("big.bin"), partial: Data())
            try FileManager.default.removeItem(atPath: directory + "/big.bin.download/big.bin")
            let result = try await runToolCapturing(["resume", "big.bin.download", "-o", "out.bin"], in: directory)
            #expect(result == ToolResult(status: 2, stdout: "",
                                         stderr: "big.bin.download: error: the bundle holds no partial file: there is nothing to resume\n"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.bin"))
        }
    }

    /// The legacy bundle's file: served with Last-Modified `Tue, 14 Nov 2023 22:13:20 GMT`.
    static let legacyServed = testData(count: (1 << 20) + 77, seed: 73)
    static let modified = Date(timeIntervalSince1970: 1_700_000_000)

    private func makeLegacyBundle(in directory: String, url: String, partial: Data, lastModified: String) throws {
        let bundle = directory + "/big.bin.download"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let info: [String: Any] = [
            "DownloadEntryPath": "/Users/examiner/Desktop/big.bin",
            "DownloadEntryResumeInformation": [
                "NSURLDownloadBytesReceived": partial.count,
                "NSURLDownloadServerModificationDate": lastModified,
                "DownloadEntryURL": url,
            ] as [String: Any],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
        try partial.write(to: URL(fileURLWithPath: bundle + "/big.bin"))
        try Data().write(to: URL(fileURLWithPath: bundle + "/Icon\r"))
    }

    /// A legacy bundle keeps the server's Last-Modified (`NSURLDownloadServerModificationDate`,
    /// beside Finder's `Icon\r`): `resume` puts it in the resume data as the validator, so a
    /// server file whose Last-Modified is another is told, and one that matches is not.
    @Test(arguments: [("Tue, 14 Nov 2023 22:13:20 GMT", true), ("Mon, 13 Nov 2023 10:00:00 GMT", false)])
    func theLastModifiedIsTheValidator(lastModified: String, matches: Bool) async throws {
        try await withNginx { nginx, directory in
            try publish(Self.legacyServed, as: "big.bin", in: nginx.root, modified: Self.modified)
            let partial = Self.legacyServed.prefix(1 << 19)
            try makeLegacyBundle(in: directory, url: nginx.url("probe/big.bin"), partial: partial, lastModified: lastModified)
            let result = try await runToolCapturing(["resume", "big.bin.download", "-o", "out.bin"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(contents(directory + "/out.bin") == Self.legacyServed)
            // The bundle is evidence: left as it was.
            #expect(contents(directory + "/big.bin.download/big.bin") == partial)
            let log = try String(contentsOfFile: directory + "/nginx/probe.log", encoding: .utf8)
            let gets = log.split(separator: "\n").filter { $0.hasPrefix("GET ") }
            // One ranged GET from 64 KiB before the partial file's end (the overlap the engine proves).
            #expect(gets == ["GET /probe/big.bin HTTP/1.1|-|-|bytes=458752-"])
            // The bundle's Last-Modified went with the request: a file changed since is told.
            let warning = "out.bin: warning: the server's Last-Modified is Tue, 14 Nov 2023 22:13:20 GMT, the partial file's was \(lastModified)\n"
            #expect(result.stderr.hasPrefix(warning) == !matches, "\(result.stderr)")
            #expect(result.stderr.contains("warning") == !matches, "\(result.stderr)")
        }
    }
}
