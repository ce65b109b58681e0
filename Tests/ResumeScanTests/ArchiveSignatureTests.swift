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

    /// A local file header for `a.txt` with this compression method, as Python's zipfile writes
    /// one (version 20, no flags, 2026-01-02 03:04:06).
    static func localHeader(method: UInt16) -> [UInt8] {
        [0x50, 0x4B, 3, 4, 20, 0, 0, 0, UInt8(method & 0xFF), UInt8(method >> 8), 0x83, 0x18, 0x22, 0x5C,
         0x78, 0x56, 0x34, 0x12, 5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0] + Array("a.txt".utf8)
    }

    @Test func zipSignatures() {
        // Stored, deflated, bzip2, LZMA, zstd, xz and AES, as zip tools write them.
        for method: UInt16 in [0, 8, 12, 14, 93, 95, 99] {
            #expect(ArchiveSignature.kind(prefix: Self.localHeader(method: method)) == "zip", "method \(method)")
        }
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 18)) == "zip")
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 7, 8] + Self.localHeader(method: 8)) == "zip")
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 1, 2]) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 3]) == nil)
        #expect(ArchiveSignature.kind(prefix: Array("PK is a name\n".utf8)) == nil)
    }

    /// `PK\3\4` followed by what no zip tool writes is not a zip: a method APPNOTE does not
    /// define, a header cut short, an end record that counts entries an empty zip lacks, a
    /// spanning marker before anything but a header.
    @Test func zipLookalikesAreNot() {
        for method: UInt16 in [7, 11, 13, 15, 17, 21, 92, 100, 0x0800, 0x7A3F, 0xFFFF] {
            #expect(ArchiveSignature.kind(prefix: Self.localHeader(method: method)) == nil, "method \(method)")
        }
        #expect(ArchiveSignature.kind(prefix: Array(Self.localHeader(method: 8).prefix(29))) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 3, 4, 20, 0]) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 5, 6, 0, 0, 0, 0, 1, 0, 1, 0] + [UInt8](repeating: 0, count: 10)) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 17)) == nil)
        #expect(ArchiveSignature.kind(prefix: [0x50, 0x4B, 7, 8, 0x50, 0x4B, 1, 2] + [UInt8](repeating: 0, count: 30)) == nil)
        // The scan benchmark's noise: PK\3\4 and random bytes, never listed (seeded: the same each run).
        var generator = SplitMix64(state: 16)
        var listed = 0
        for _ in 0..<10_000 where ArchiveSignature.kind(prefix: [0x50, 0x4B, 3, 4] + generator.bytes(60)) != nil { listed += 1 }
        #expect(listed < 10, "\(listed) of 10,000")
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
