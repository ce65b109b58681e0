import Foundation
import Testing

/// `scan` of gzip-compressed tars, which the archive reader inflates with ISA-L on a thread of
/// its own (Sources/CArchiveShim/CArchiveInflater.c) instead of libarchive's zlib filter. Every
/// archive is made by GNU tar and gzip (`Backups/make_gzip_cases.sh`); each one that is whole
/// must scan exactly as the tar it holds, and each damaged one must say so and keep what it found.
@Suite struct GzipArchiveTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/make_gzip_cases.sh")
    static let lastMember = "filesystem1/private/var/mobile/Library/Preferences/com.apple.example.plist"

    /// The archives, in a fresh folder: every case, or only the bomb.
    final class Made {
        let directory: TemporaryDirectory
        init(_ what: String = "cases") throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["bash", GzipArchiveTests.generator.path, directory.url.path, what])
            try #require(made.status == 0, "make_gzip_cases.sh: \(String(decoding: made.stderr, as: UTF8.self))")
        }

        /// Exit status and standard output of `scan --json NAME`, with NAME written as `ARCHIVE`.
        func scan(_ name: String) throws -> (status: Int32, json: String) {
            let result = try ToolRunner.run(["scan", "--json", name], in: directory.url)
            return (result.status, result.stdout.replacingOccurrences(of: name, with: "ARCHIVE"))
        }

        func errors(_ name: String) throws -> (status: Int32, messages: [String], blobs: Int, complete: Bool?) {
            let result = try ToolRunner.run(["scan", "--json", name], in: directory.url)
            let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let errors = (top["errors"] as? [[String: String]]) ?? []
            #expect(errors.allSatisfy { $0["path"] == name })
            let archive = (top["archives"] as? [[String: Any]])?.first
            return (result.status, errors.compactMap { $0["message"] }, (top["blobs"] as? [Any])?.count ?? -1, archive?["complete"] as? Bool)
        }
    }

    /// Whole gzip files of every shape gzip writes (no name, FNAME and time, -1 and -9, and
    /// bytes after the last member that start none) give the tar's own report, byte for byte.
    @Test func wholeGzipScansAsItsTar() throws {
        let made = try Made()
        let tar = try made.scan("plain.tar")
        #expect(tar.status == 0)
        #expect(tar.json.contains("\"blobs\""))
        for name in ["plain.tar.gz", "named.tar.gz", "best.tar.gz", "fast.tar.gz", "padded.tar.gz"] {
            let gzip = try made.scan(name)
            #expect(gzip.status == 0, "\(name)")
            #expect(gzip.json == tar.json, "\(name)")
        }
    }

    /// A changed CRC-32 or length in the trailer, or a changed byte in the data: the pass stops
    /// with the damage named (libarchive's own filter does not check the trailer and would have
    /// handed on wrong bytes without a word), and the blobs read before it are reported.
    @Test func damagedGzipSaysSoAndKeepsTheFindings() throws {
        let made = try Made()
        for name in ["crc.tar.gz", "length.tar.gz", "flipped.tar.gz"] {
            let scan = try made.errors(name)
            #expect(scan.status == 2, "\(name)")
            #expect(scan.blobs == 4, "\(name)")
            #expect(scan.complete == false, "\(name)")
            #expect(scan.messages == ["corrupt at member 36: gzip: a member's CRC-32 or length does not match its trailer (the archive is damaged) "
                + "(the last member read: \(Self.lastMember)); the findings before it are reported"], "\(name)")
        }
    }

    /// A gzip file cut short inside its compressed data: libarchive's words for it, as before.
    @Test func truncatedGzipSaysSo() throws {
        let made = try Made()
        let whole = try Data(contentsOf: made.directory.url.appendingPathComponent("plain.tar.gz"))
        try whole.prefix(whole.count / 2).write(to: made.directory.url.appendingPathComponent("cut.tar.gz"))
        let scan = try made.errors("cut.tar.gz")
        #expect(scan.status == 2)
        #expect(scan.complete == false)
        try #require(scan.messages.count == 1)
        #expect(scan.messages[0].hasPrefix("corrupt at member "))
        #expect(scan.messages[0].contains(": truncated gzip input (the last member read: "))
    }

    /// 256 MiB of zeros in one member, about a megabyte compressed: the expansion bound stops the
    /// pass at 64 MiB (the inflater's position is the compressed bytes behind what libarchive
    /// was given, so the ratio is the same as through libarchive's filter), and the thread that
    /// was inflating ahead is stopped, not waited for to the end.
    @Test func gzipBombIsRefused() throws {
        let scan = try Made("bomb").errors("bomb.tar.gz")
        #expect(scan.status == 2)
        #expect(scan.blobs == 4)
        #expect(scan.complete == false)
        try #require(scan.messages.count == 1)
        #expect(scan.messages[0].hasPrefix("refused at member 36: 67"))
        #expect(scan.messages[0].hasSuffix(" (an archive bomb) (the last member read: filesystem1/private/var/mobile/zeros.bin); the findings before it are reported"))
    }
}
