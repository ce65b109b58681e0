import Foundation
@testable import ResumeScan
import ResumeSystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``SpelledPath``: a root spelled as the scan spells paths reaches the kernel by its bytes, a
/// link given as a root is followed, and text that is no spelling, or holds a NUL, opens nothing.
@Suite struct SpelledPathTests {
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
        let opened = SpelledPath.open(tree.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, calls: .system)
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
        #expect(SpelledPath.isRegularFile(tree.file))
        #expect(!SpelledPath.isRegularFile(tree.folder))
        guard case .success(let descriptor) = SpelledPath.openEvidence(tree.file, calls: .system) else {
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
        #expect(SpelledPath.isRegularFile(tree.file))
        #expect(!SpelledPath.isRegularFile(tree.file, calls: failing))
        #expect(SpelledPath.resolved(tree.link) != nil)
        #expect(SpelledPath.resolved(tree.link, calls: failing) == nil)
    }

    /// A link named as a root is followed, and its target is spelled from its bytes.
    @Test func aLinkIsResolvedToItsTargetsSpelling() throws {
        let tree = try Tree()
        let base = try #require(SpelledPath.resolved(tree.base))
        #expect(SpelledPath.resolved(tree.link)?.utf8.elementsEqual((base + "/caf\\x{e9}").utf8) == true)
        #expect(SpelledPath.resolved(tree.base + "/missing") == nil)
        // Evidence is never opened through a link, even one given as the archive.
        guard case .failure(let failure) = SpelledPath.openEvidence(tree.link, calls: .system) else {
            Issue.record("a link was opened as evidence")
            return
        }
        #expect(failure.code == ELOOP)
    }

    @Test(arguments: [
        ("/tmp/\\x{41}", ENOENT),
        ("/tmp/a\\x{zz}", ENOENT),
        ("", ENOENT),
        ("/tmp/a\u{0}b", EINVAL),
        // A NUL is spelled as itself, so its escape is no spelling.
        ("/tmp/a\\x{0}b", ENOENT),
    ] as [(String, Int32)])
    func textThatIsNoPathOpensNothing(_ text: String, _ code: Int32) {
        guard case .failure(let failure) = SpelledPath.open(text, O_RDONLY | O_CLOEXEC, calls: .system) else {
            Issue.record("\(text) was opened")
            return
        }
        #expect(failure.code == code)
        #expect(SpelledPath.resolved(text) == nil)
        #expect(!SpelledPath.isRegularFile(text))
    }
}
