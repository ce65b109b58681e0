import Foundation
import Testing
@testable import ResumeDataCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `resumetool scan --json` of a tree whose folder and file names are not UTF-8, made on disk
/// under their raw bytes (issue 34): names are shown escaped, and each blob is paired with the
/// partial file its own folder holds, never with one whose name only reads alike.
@Suite struct ScanNonUTF8Tests {
    /// `base/relative` written with `open(2)`, its folders made with `mkdir(2)`, all by bytes.
    static func write(_ data: Data, _ relative: [UInt8], in base: URL) throws {
        var folder = Array(base.path.utf8)
        for component in relative.split(separator: UInt8(ascii: "/")).dropLast() {
            folder += [UInt8(ascii: "/")] + component
            let made = withCPath(folder) { mkdir($0, 0o755) == 0 || errno == EEXIST }
            try #require(made == true, "cannot make \(String(decoding: folder, as: UTF8.self))")
        }
        let path = Array(base.path.utf8) + [UInt8(ascii: "/")] + relative
        let descriptor = withCPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? -1
        try #require(descriptor >= 0, "cannot create \(String(decoding: path, as: UTF8.self))")
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(contentsOf: data)
    }

    private static func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T? {
        (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in buffer.baseAddress.map(body) }
    }

    static func blob(tempFileName: String) throws -> Data {
        var resume = ResumeData(container: .binary)
        resume.downloadURL = "https://example.com/file.bin"
        resume.bytesReceived = 100
        resume.tempFileName = tempFileName
        return try resume.encoded()
    }

    /// Two containers, `caf` then byte E9 and the UTF-8 `caf\x{e9}`, each with a blob naming
    /// `other.part`, which only the second's `tmp/` holds; and a blob whose `TempFileName` spells
    /// `CFNetworkDownload_\x{ff}.tmp` beside a partial file with byte FF in that place.
    @Test func pairsByBytesAndShowsNamesEscaped() throws {
        let directory = try TemporaryDirectory()
        defer {
            // Foundation's removal is not given names that are not UTF-8.
            _ = try? ToolRunner.capture(URL(fileURLWithPath: "/bin/rm"), ["-rf", directory.path("ev")])
        }
        let latin: [UInt8] = Array("ev/caf".utf8) + [0xE9]
        let spelled = Array("ev/caf\\x{e9}".utf8)
        try Self.write(Self.blob(tempFileName: "other.part"), latin + Array("/Library/blob".utf8) + [0xFF], in: directory.url)
        try Self.write(Data(), latin + Array("/tmp/.keep".utf8), in: directory.url)
        try Self.write(Self.blob(tempFileName: "other.part"), spelled + Array("/Library/blob".utf8), in: directory.url)
        try Self.write(Data(repeating: 3, count: 100), spelled + Array("/tmp/other.part".utf8), in: directory.url)
        try Self.write(Self.blob(tempFileName: "CFNetworkDownload_\\x{ff}.tmp"), Array("ev/app/Library/blob".utf8), in: directory.url)
        try Self.write(Data(repeating: 4, count: 100), Array("ev/app/tmp/CFNetworkDownload_".utf8) + [0xFF] + Array(".tmp".utf8), in: directory.url)

        let result = try ToolRunner.run(["scan", "--json", "ev"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [
            "ev/app/Library/blob", "ev/caf\\x{5c}x{e9}/Library/blob", "ev/caf\\x{e9}/Library/blob\\x{ff}",
        ])
        #expect(blobs.map { ($0["partialFile"] as? [String: Any])?["path"] as? String } == [nil, "ev/caf\\x{5c}x{e9}/tmp/other.part", nil])
        #expect(blobs.map { $0["appContainer"] as? String } == ["ev/app", "ev/caf\\x{5c}x{e9}", "ev/caf\\x{e9}"])
        #expect(blobs.map { ($0["findings"] as? [[String: Any]])?.filter { $0["code"] as? String == "temp-file-missing" }.map { $0["message"] as? String } } == [
            ["the partial file ev/app/tmp/CFNetworkDownload_\\x{5c}x{ff}.tmp does not exist"],
            [],
            ["the partial file ev/caf\\x{e9}/tmp/other.part does not exist"],
        ])
        let orphans = try #require(top["orphanPartialFiles"] as? [[String: Any]])
        #expect(orphans.map { $0["path"] as? String } == ["ev/app/tmp/CFNetworkDownload_\\x{ff}.tmp"])
    }
}
