#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import ResumeTransfer

/// Where an upload keeps its checkpoint: ``UploadCheckpointPlace`` value by value, then through
/// the built binary as a user who may not write in the file's folder.
@Suite struct UploadCheckpointPlaceTests {
    static func facts(
        writable: Bool = false, beside: Bool = false, stateDirectory: String? = nil, stateHome: String? = nil,
        home: String? = "/home/u", identity: (device: UInt64, inode: UInt64)? = (2049, 77), name: String = "photo.jpg"
    ) -> UploadCheckpointPlace.Facts {
        UploadCheckpointPlace.Facts(
            fileName: name, identity: identity, folderWritable: writable, checkpointBeside: beside,
            stateDirectory: stateDirectory, stateHome: stateHome, home: home)
    }

    /// A finished upload's checkpoint goes with what a writer of it killed mid-write left (the
    /// atomic write's `.NAME.tmp-PID-RANDOM`); other files beside it stay.
    @Test func removingTheCheckpointTakesAKilledWritersTemporaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upload-checkpoint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = ["file.bin", "file.bin.uploadresume", "file.bin.uploadresume.identity", ".file.bin.uploadresume.tmp-4242-17",
                     ".file.bin.uploadresume.identity.tmp-4242-18", ".other.tmp-4242-19", ".file.bin.uploadresume.tmp-x"]
        for name in names { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try UploadCheckpoint.beside(file: folder + "/file.bin").remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".file.bin.uploadresume.tmp-x", ".other.tmp-4242-19", "file.bin"])
    }

    @Test func besideTheFileWhereItCanBe() {
        #expect(UploadCheckpointPlace.verdict(Self.facts(writable: true)) == .beside)
        // An earlier run's checkpoint beside it is continued there, writable or not.
        #expect(UploadCheckpointPlace.verdict(Self.facts(beside: true)) == .beside)
        #expect(UploadCheckpointPlace.verdict(Self.facts(writable: true, identity: nil)) == .beside)
    }

    @Test func aGivenStateFolderAlwaysWins() {
        #expect(UploadCheckpointPlace.verdict(Self.facts(writable: true, beside: true, stateDirectory: "/s"))
            == .inFolder(folder: "/s", name: "2049-77-photo.jpg.uploadresume", made: []))
        #expect(UploadCheckpointPlace.verdict(Self.facts(stateDirectory: "/s", identity: nil))
            == .nowhere("the file's identity cannot be read to name its checkpoint in /s"))
    }

    @Test func theUsersStateFolderOtherwise() {
        #expect(UploadCheckpointPlace.verdict(Self.facts(stateHome: "/x/state"))
            == .inFolder(folder: "/x/state/resumetool/uploads", name: "2049-77-photo.jpg.uploadresume",
                         made: ["/x/state/resumetool", "/x/state/resumetool/uploads"]))
        // A relative XDG_STATE_HOME is ignored, as the XDG specification says.
        #expect(UploadCheckpointPlace.verdict(Self.facts(stateHome: "state", home: "/home/u/"))
            == .inFolder(folder: "/home/u/.local/state/resumetool/uploads", name: "2049-77-photo.jpg.uploadresume",
                         made: ["/home/u/.local", "/home/u/.local/state", "/home/u/.local/state/resumetool", "/home/u/.local/state/resumetool/uploads"]))
        #expect(UploadCheckpointPlace.verdict(Self.facts(home: nil)) == .nowhere(
            "the file's folder is not writable, and neither XDG_STATE_HOME nor HOME names a folder to keep the upload's checkpoint in: give --state-dir DIR"))
        #expect(UploadCheckpointPlace.verdict(Self.facts(home: "relative")) == .nowhere(
            "the file's folder is not writable, and neither XDG_STATE_HOME nor HOME names a folder to keep the upload's checkpoint in: give --state-dir DIR"))
    }

    /// The name keeps only what is safe in any file system and shell, at most 64 characters of it.
    @Test(arguments: [
        ("photo.jpg", "2049-77-photo.jpg.uploadresume"), ("../../etc/x", "2049-77-....etcx.uploadresume"),
        ("caf\u{E9} \u{1F600}.mov", "2049-77-caf.mov.uploadresume"), ("\u{E9}\u{E9}", "2049-77.uploadresume"),
        (String(repeating: "a", count: 100), "2049-77-\(String(repeating: "a", count: 64)).uploadresume"),
    ])
    func theNameIsSafe(name: String, expected: String) {
        #expect(UploadCheckpointPlace.name(Self.facts(name: name)) == expected)
    }

    /// A file in a root-owned 0755 folder, uploaded by `nobody`: the checkpoint goes to the state
    /// folder; a killed run is continued by the same command, which finds it there by the file's
    /// identity; the state folder is the user's alone (0700).
    @Test func aFileInAFolderTheUserCannotWriteIsUploadedAndContinued() async throws {
        let server = try await AppleUploadServer.start()
        let root = "/tmp/upload-readonly-\(UUID().uuidString)"
        let folder = root + "/files"
        let state = root + "/state"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = UploadTesting.bytes(8 << 20)
        _ = try UploadTesting.write(bytes, in: folder)
        let asRoot = getuid() == 0
        // As root, the user who may not write is nobody; as anyone else, the folder loses its w bit.
        #expect(chmod(root, 0o755) == 0)
        #expect(chmod(folder + "/photo.bin", 0o644) == 0)
        #expect(chmod(state, 0o777) == 0)
        #expect(chmod(folder, asRoot ? 0o755 : 0o555) == 0)
        defer { chmod(folder, 0o755) }
        let shell = asRoot ? "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$TOOL\"" : "exec \"$TOOL\""
        let environment = ["XDG_STATE_HOME": state, "HOME": "/nonexistent"]
        let url = server.origin + "/files/photo.bin"
        let uploads = state + "/resumetool/uploads"
        let checkpoint = { @Sendable () -> String? in
            (try? FileManager.default.contentsOfDirectory(atPath: uploads))?.first { $0.hasSuffix(".uploadresume") }
        }
        let killed = try await runToolCapturing(
            ["upload", "photo.bin", url, "--limit-rate", "1M", "--quiet"], in: folder, after: .milliseconds(100),
            when: { checkpoint() != nil }, shell: shell, environment: environment)
        #expect(killed.status == nil, Comment(rawValue: killed.stderr))
        let name = try #require(checkpoint())
        var info = stat()
        #expect(stat(folder + "/photo.bin", &info) == 0)
        #expect(name == "\(info.st_dev)-\(info.st_ino)-photo.bin.uploadresume")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["photo.bin"])
        var mode = stat()
        #expect(stat(uploads, &mode) == 0 && mode.st_mode & 0o777 == 0o700)

        let run = try await runToolCapturing(["upload", "photo.bin", url], in: folder, shell: shell, environment: environment)
        #expect(run.status == 0, Comment(rawValue: run.stderr))
        #expect(run.stderr.hasPrefix("photo.bin: the upload's checkpoint is kept in \(uploads)/\(name)\nphoto.bin: continuing the upload at "),
                Comment(rawValue: run.stderr))
        #expect(run.stderr.hasSuffix(" bytes sent in this run, continued 1 time)\n"), Comment(rawValue: run.stderr))
        #expect(server.stored("/files/photo.bin") == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads) == [])
        await server.stop()
    }
}
