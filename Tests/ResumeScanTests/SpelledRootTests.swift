import Foundation
@testable import ResumeScan
import ResumeSystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A root spelled as the scan spells paths (``BytePath/init(spelled:)``) reaches the kernel by its
/// bytes through the seam's path calls, a link given as a root is followed, and text that is no
/// spelling, or holds a NUL, opens nothing.
@Suite struct SpelledRootTests {
    /// A fresh folder (``NonUTF8PairingTests/RawTree``) holding the folder `caf` + byte E9, the
    /// file `a.tar` + byte FF, and `link`, a link to the folder.
    struct Tree {
        let raw: NonUTF8PairingTests.RawTree
        var base: String { raw.base }
        var folder: String { base + "/caf\\x{e9}" }
        var file: String { base + "/a.tar\\x{ff}" }
        var link: String { base + "/link" }

        init() throws {
            raw = try NonUTF8PairingTests.RawTree()
            let folder = Array("caf".utf8) + [0xE9]
            try raw.folder(folder)
            try raw.write(Data(), Array("a.tar".utf8) + [0xFF])
            let linked = NonUTF8PairingTests.RawTree.withCPath(folder) { target in
                NonUTF8PairingTests.RawTree.withCPath(Array((raw.base + "/link").utf8)) { symlink(target, $0) }
            }
            try #require(linked == 0)
        }
    }

    @Test func aFolderIsOpenedByTheBytesItsSpellingStandsFor() throws {
        let tree = try Tree()
        let opened = FileSystemCalls.system.open(BytePath(spelled: tree.folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard case .success(let descriptor) = opened else {
            Issue.record("not opened: \(opened)")
            return
        }
        close(descriptor)
        // The same text read as UTF-8 names nothing.
        #expect(FileManager.default.fileExists(atPath: tree.folder) == false)
    }

    @Test func aFileIsOpenedAsEvidenceAndSeenAsAFile() throws {
        let tree = try Tree()
        #expect(FileSystemCalls.system.isRegularFile(BytePath(spelled: tree.file)))
        #expect(!FileSystemCalls.system.isRegularFile(BytePath(spelled: tree.folder)))
        guard case .success(let descriptor) = FileSystemCalls.system.openEvidence(BytePath(spelled: tree.file)) else {
            Issue.record("not opened")
            return
        }
        close(descriptor)
    }

    /// Both questions go through the seam: a failing `stat` or `realpath` is "not a file" and
    /// "cannot be resolved", whatever is on disk.
    @Test func theSystemsAnswersComeThroughTheSeam() throws {
        let tree = try Tree()
        var failing = FileSystemCalls.system
        failing.statFollowingLinksBytes = { _ in .failure(.init(EIO)) }
        failing.resolvedPathBytes = { _ in .failure(.init(EIO)) }
        #expect(FileSystemCalls.system.isRegularFile(BytePath(spelled: tree.file)))
        #expect(!failing.isRegularFile(BytePath(spelled: tree.file)))
        #expect(FileSystemCalls.system.resolved(BytePath(spelled: tree.link)) != nil)
        #expect(failing.resolved(BytePath(spelled: tree.link)) == nil)
        // A root is opened by its target, which the failing realpath cannot give.
        #expect(failing.openEvidenceRoot(BytePath(spelled: tree.link)).map { close($0) } == .failure(.init(ELOOP)))
    }

    /// A link named as a root is followed, and its target is spelled from its bytes.
    @Test func aLinkIsResolvedToItsTargetsSpelling() throws {
        let tree = try Tree()
        let base = try #require(FileSystemCalls.system.resolved(BytePath(spelled: tree.base)))
        #expect(FileSystemCalls.system.resolved(BytePath(spelled: tree.link)) == BytePath(bytes: base.bytes + Array("/caf".utf8) + [0xE9]))
        #expect(FileSystemCalls.system.resolved(BytePath(spelled: tree.link))?.spelled == base.spelled + "/caf\\x{e9}")
        #expect(FileSystemCalls.system.resolved(BytePath(spelled: tree.base + "/missing")) == nil)
        // A link given as a root is followed to its target.
        guard case .success(let root) = FileSystemCalls.system.openEvidenceRoot(BytePath(spelled: tree.link)) else {
            Issue.record("a root link was not followed")
            return
        }
        close(root)
        // Evidence is never opened through a link, even one given as the archive.
        guard case .failure(let failure) = FileSystemCalls.system.openEvidence(BytePath(spelled: tree.link)) else {
            Issue.record("a link was opened as evidence")
            return
        }
        #expect(failure.code == ELOOP)
    }

    @Test(arguments: [
        // Text that spells no path stands for one holding a NUL, which the seam refuses.
        ("/tmp/\\x{41}", EINVAL),
        ("/tmp/a\\x{zz}", EINVAL),
        ("", ENOENT),
        ("/tmp/a\u{0}b", EINVAL),
        // A NUL is spelled as itself, so its escape is no spelling.
        ("/tmp/a\\x{0}b", EINVAL),
    ] as [(String, Int32)])
    func textThatIsNoPathOpensNothing(_ text: String, _ code: Int32) {
        guard case .failure(let failure) = FileSystemCalls.system.open(BytePath(spelled: text), O_RDONLY | O_CLOEXEC) else {
            Issue.record("\(text) was opened")
            return
        }
        #expect(failure.code == code)
        #expect(FileSystemCalls.system.resolved(BytePath(spelled: text)) == nil)
        #expect(!FileSystemCalls.system.isRegularFile(BytePath(spelled: text)))
    }
}
