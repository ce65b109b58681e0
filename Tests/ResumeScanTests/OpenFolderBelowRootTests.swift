import Foundation
@testable import ResumeSystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``FileSystemCalls/openFolder(_:below:)``, the one way scan opens a folder below a root it was given, on a real tree: no
/// symbolic link below the root is followed, `..` is refused, the root itself may be a link.
@Suite struct OpenFolderBelowRootTests {
    @Test func opensOnlyWhatIsReallyBelowTheRoot() throws {
        let base = NSTemporaryDirectory() + "rooted-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root"
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/a/b/file"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a")
        try FileManager.default.createSymbolicLink(atPath: root + "/escape", withDestinationPath: base + "/outside")
        try FileManager.default.createSymbolicLink(atPath: base + "/root-link", withDestinationPath: root)

        func holds(_ components: [String], below folder: String = root, _ name: String) -> Bool? {
            guard let descriptor = FileSystemCalls.system.openFolder(components.map { BytePath($0) }, below: BytePath(folder)) else { return nil }
            defer { close(descriptor) }
            var status = stat()
            return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0
        }
        #expect(holds(["a", "b"], "file") == true)
        #expect(holds([], "a") == true)
        #expect(holds(["a", "b"], below: base + "/root-link", "file") == true)
        // A link below the root, `..`, a missing folder, a file: refused.
        #expect(holds(["link", "b"], "file") == nil)
        #expect(holds(["escape"], "secret") == nil)
        #expect(holds(["a", "..", "..", "outside"], "secret") == nil)
        #expect(holds(["..", "outside"], "secret") == nil)
        #expect(holds(["missing"], "file") == nil)
        #expect(holds(["a", "b", "file"], "x") == nil)
        #expect(holds(["a"], below: base + "/nowhere", "b") == nil)
    }

    /// Bytes become a C path in one place, which refuses a NUL: cut there, `/tmp` + NUL + `x`
    /// would have opened `/tmp`.
    @Test func aPathHoldingANULIsRefusedNotCut() {
        let cut = Array("/tmp".utf8) + [0] + Array("x".utf8)
        #expect(FileSystemCalls.system.openFolder([], below: BytePath(bytes: cut)) == nil)
        guard case .failure(let opened) = FileSystemCalls.system.openat(AT_FDCWD, BytePath(bytes: cut), O_RDONLY | O_DIRECTORY | O_CLOEXEC),
              case .failure(let status) = FileSystemCalls.system.fstatat(AT_FDCWD, BytePath(bytes: cut)) else {
            Issue.record("a path holding a NUL was used")
            return
        }
        #expect(opened.code == EINVAL)
        #expect(status.code == EINVAL)
        #expect(FileSystemCalls.withCPath(cut) { _ in .success(0) } == .failure(FileSystemCalls.Failure(EINVAL)))
        #expect(FileSystemCalls.withCPath(Array("/tmp".utf8)) { .success(String(cString: $0)) } == .success("/tmp"))
    }

}
