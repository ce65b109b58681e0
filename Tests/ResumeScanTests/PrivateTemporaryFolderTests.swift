import Foundation
@testable import ResumeSystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``PrivateTemporaryFolder``: where it is made, its mode and name, and each way making it fails.
@Suite struct PrivateTemporaryFolderTests {
    @Test func theBaseIsTMPDIRUnlessUnsetOrEmpty() {
        #expect(PrivateTemporaryFolder.base(environment: [:]) == "/tmp")
        #expect(PrivateTemporaryFolder.base(environment: ["TMPDIR": ""]) == "/tmp")
        #expect(PrivateTemporaryFolder.base(environment: ["TMPDIR": "/var/tmp/"]) == "/var/tmp/")
    }

    @Test func aFolderOfItsOwnMode0700GoneWhenRemoved() throws {
        let base = try PrivateTemporaryFolder.make(prefix: "tests-base-").get()
        defer { base.remove() }
        // A trailing slash on TMPDIR makes no double slash.
        for spelled in [base.path, base.path + "/"] {
            let folder = try PrivateTemporaryFolder.make(prefix: "resumetool-", environment: ["TMPDIR": spelled]).get()
            #expect(BytePath(folder.path).folder == BytePath(base.path))
            let name = BytePath(folder.path).lastName.text
            #expect(name.hasPrefix("resumetool-") && name.utf8.count == "resumetool-XXXXXX".utf8.count)
            var status = stat()
            #expect(lstat(folder.path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o777 == 0o700)
            #expect(FileManager.default.createFile(atPath: folder.path + "/payload", contents: Data("x".utf8)))
            folder.remove()
            #expect(lstat(folder.path, &status) == -1 && errno == ENOENT)
        }
    }

    @Test func aFailureNamesTheFolderAndTheSystemsReason() {
        #expect(PrivateTemporaryFolder.make(prefix: "resumetool-", environment: ["TMPDIR": "/nonexistent-folder"])
            == .failure(.init(base: "/nonexistent-folder", failure: .init(ENOENT))))
        var full = FileSystemCalls.system
        full.makeTemporaryFolder = { _ in .failure(.init(ENOSPC)) }
        #expect(PrivateTemporaryFolder.make(prefix: "p-", environment: ["TMPDIR": "/tmp"], calls: full)
            == .failure(.init(base: "/tmp", failure: .init(ENOSPC))))
        // A NUL in the folder's name is refused before the system is asked.
        #expect(PrivateTemporaryFolder.make(prefix: "p-", environment: ["TMPDIR": "/tmp/a\u{0}b"])
            == .failure(.init(base: "/tmp/a\u{0}b", failure: .init(EINVAL))))
    }
}
