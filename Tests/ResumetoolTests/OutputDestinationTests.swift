#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Every command that writes a file, given a one-character name as its output (`-o a`): the
/// file is written and the command exits 0; and outputs that are not files. swift-corelibs-foundation 6.3.1's
/// `deletingLastPathComponent` traps on such a name, and the output's folder was once found
/// through it (exit 132 after the file was written).
@Suite struct OutputDestinationTests {
    static let blob = "ios12-keyed-archive.resumedata"

    static let commands: [[String]] = [
        ["convert", "BLOB", "--to", "xml", "-o", "a"],
        ["repair", "BLOB", "-o", "a"],
        ["edit", "BLOB", "--url", "https://example.com/other.bin", "-o", "a"],
        ["relocate", "BLOB", "--temp-file", "CFNetworkDownload_x.tmp", "-o", "a"],
        ["rebuild", "--from", "PARTIAL", "--url", "https://example.com/file.bin", "--etag", "\"t\"", "-o", "a"],
        ["plist", "convert", "--to", "json", "BLOB", "-o", "a"],
        ["scan", ".", "--html", "a"],
    ]

    @Test(arguments: commands)
    func aOneCharacterOutputIsWritten(_ template: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: EndToEnd.samples.appendingPathComponent(Self.blob).path, toPath: folder + "/blob")
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: folder + "/partial"))
        let arguments = template.map { $0 == "BLOB" ? "blob" : $0 == "PARTIAL" ? "partial" : $0 }
        let result = try ToolRunner.run(arguments, in: URL(fileURLWithPath: folder))
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        let written = try #require(FileManager.default.contents(atPath: folder + "/a"), "\(arguments)")
        #expect(!written.isEmpty)
        // Nothing else left beside it: no temporary file of the atomic write.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["a", "blob", "partial"], "\(arguments)")
    }

    /// A device is written through and stays a device: renaming a new file over `/dev/null`
    /// would replace the node itself when run as root (as CI is).
    @Test func aDeviceIsWrittenThroughAndStaysADevice() throws {
        let null = try ToolRunner.run(["convert", Self.blob, "--to", "xml", "-o", "/dev/null"], in: EndToEnd.samples)
        #expect(null == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let full = try ToolRunner.run(["convert", Self.blob, "--to", "xml", "-o", "/dev/full"], in: EndToEnd.samples)
        #expect(full == ToolRunner.Result(status: 1, stdout: "", stderr: "/dev/full: error: cannot write: write: No space left on device\n"))
        for device in ["/dev/null", "/dev/full"] {
            var info = stat()
            #expect(lstat(device, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFCHR, "\(device) is no longer a character device")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.contains(".tmp-") }
        #expect(leftovers == [])
    }

    /// A folder named as the output is refused, and stays as it was.
    @Test func aFolderIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: EndToEnd.samples.appendingPathComponent(Self.blob).path, toPath: folder + "/blob")
        let result = try ToolRunner.run(["repair", "blob", "-o", "out"], in: URL(fileURLWithPath: folder))
        #expect(result == ToolRunner.Result(status: 1, stdout: "", stderr: "out: error: cannot write: open: Is a directory\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["blob", "out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == [])
    }

    /// One rule for modes: a new output is 0600 (a blob may hold credentials; `plist convert` may
    /// be given one), a file replaced in place keeps its mode, owner and group (`edit -o SAME`
    /// once turned 0644 into 0600).
    @Test func aReplacedFileKeepsItsModeAndOwnerAndANewOneIsPrivate() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let blob = folder + "/blob"
        try FileManager.default.copyItem(atPath: EndToEnd.samples.appendingPathComponent(Self.blob).path, toPath: blob)
        #expect(chmod(blob, 0o644) == 0)
        // Root (as CI) can give the file away; the edit must then leave it where it was.
        let owner: (uid_t, gid_t) = geteuid() == 0 ? (1234, 5678) : (geteuid(), getegid())
        #expect(chown(blob, owner.0, owner.1) == 0)
        let here = URL(fileURLWithPath: folder)
        let edited = try ToolRunner.run(["edit", "blob", "--url", "https://example.com/other.bin", "-o", "blob"], in: here)
        #expect(edited.status == 0, "\(edited.stderr)")
        var info = stat()
        #expect(lstat(blob, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o644)
        #expect(info.st_uid == owner.0 && info.st_gid == owner.1)
        #expect(chmod(blob, 0o640) == 0)
        #expect(try ToolRunner.run(["relocate", "blob", "--temp-file", "CFNetworkDownload_y.tmp", "-o", "blob"], in: here).status == 0)
        #expect(lstat(blob, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        for arguments in [["convert", "blob", "--to", "xml", "-o", "new.plist"], ["plist", "convert", "--to", "json", "blob", "-o", "new.json"]] {
            #expect(try ToolRunner.run(arguments, in: here).status == 0)
            #expect(lstat(folder + "/" + arguments.last!, &info) == 0 && info.st_mode & 0o7777 == 0o600, "\(arguments)")
        }
    }

    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "one-character-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
}
