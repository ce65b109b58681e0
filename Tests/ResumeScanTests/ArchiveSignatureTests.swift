import Foundation
import Testing

@testable import ResumeScan

/// ``ArchiveSignature``: the first bytes alone, value by value.
@Suite struct ArchiveSignatureTests {
    /// 512 bytes with `magic` at offset 257, as a tar header has it.
    static func tarHeader(_ magic: String) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<4, with: Array("blob".utf8))
        header.replaceSubrange(257..<257 + magic.utf8.count, with: Array(magic.utf8))
        return header
    }

    @Test func zipSignatures() {
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 3, 4, 20, 0]) == "zip")
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 18)) == "zip")
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 7, 8, 0x50, 0x4B, 3, 4]) == "zip")
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 1, 2]) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 3]) == nil)
        #expect(ArchiveSignature.kind(prefix: Array("PK is a name\n".utf8)) == nil)
    }

    @Test func tarSignatures() {
        #expect(ArchiveSignature.kind(prefix: Self.tarHeader("ustar\u{0}00")) == "tar")
        #expect(ArchiveSignature.kind(prefix: Self.tarHeader("ustar  \u{0}")) == "tar")
        #expect(ArchiveSignature.kind(prefix: Self.tarHeader("ustaR")) == nil)
        #expect(ArchiveSignature.kind(prefix: Array(Self.tarHeader("ustar").prefix(261))) == nil)
        #expect(ArchiveSignature.kind(prefix: [UInt8](repeating: 0, count: 1024)) == nil)
    }

    @Test func compressedSignatures() throws {
        // gzip of a tar header: inflated to find it; gzip of text is no archive.
        #expect(ArchiveSignature.kind(prefix: try Self.gzip(Self.tarHeader("ustar\u{0}00") + [UInt8](repeating: 0x41, count: 4096))) == "tar.gz")
        #expect(ArchiveSignature.kind(prefix: try Self.gzip(Array(String(repeating: "a log line\n", count: 400).utf8))) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF]) == nil)
        #expect(ArchiveSignature.kind(prefix: Array("BZh91AY&SY".utf8) + [0, 1, 2]) == "tar.bz2")
        #expect(ArchiveSignature.kind(prefix: Array("BZh01AY&SY".utf8)) == nil)
        #expect(ArchiveSignature.kind(prefix: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 4]) == "tar.xz")
        #expect(ArchiveSignature.kind(prefix: [0xFD, 0x37, 0x7A, 0x58, 0x5A]) == nil)
    }

    @Test func otherContentIsNoArchive() {
        #expect(ArchiveSignature.kind(prefix: [UInt8]()) == nil)
        #expect(ArchiveSignature.kind(prefix: Array("bplist00".utf8)) == nil)
        #expect(ArchiveSignature.kind(prefix: Array("SQLite format 3\u{0}".utf8)) == nil)
    }

    /// `bytes` through `gzip -c`, cut to the first kilobyte as the scan reads it.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data.prefix(1024))
    }
}
