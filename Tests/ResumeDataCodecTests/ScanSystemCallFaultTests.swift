import Foundation
@testable import ResumeSystemCalls
import Testing

@testable import ResumeScan

#if canImport(Glibc)
import Glibc
#endif

/// `scan`'s walker and probe with the seam's calls failing: each failure becomes a problem
/// naming the path and the reason, and the walk goes on.
@Suite struct ScanSystemCallFaultTests {
    /// root/a.bin and root/sub/b.bin in a fresh folder.
    private func tree() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-fault-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try Data("bplist00 not really".utf8).write(to: URL(fileURLWithPath: root + "/a.bin"))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: root + "/sub/b.bin"))
        return root
    }

    private func walk(_ root: String, calls: FileSystemCalls) -> (ok: Bool, files: [TreeWalker.File], errors: [ScanProblem]) {
        var walker = TreeWalker()
        walker.calls = calls
        var files: [TreeWalker.File] = []
        let ok = walker.walk(root: root) { files += $0 }
        return (ok, files, walker.errors)
    }

    @Test func aListingCutShortKeepsWhatWasListedAndSaysSo() throws {
        let root = try self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var calls = FileSystemCalls.system
        let real = calls.listFolder
        calls.listFolder = { descriptor in
            real(descriptor).map { listing in
                var cut = listing
                cut.failure = FileSystemCalls.Failure(EIO)
                return cut
            }
        }
        let result = self.walk(root, calls: calls)
        #expect(result.ok)
        #expect(result.files.map(\.path) == [root + "/a.bin", root + "/sub/b.bin"])
        #expect(result.errors == [
            ScanProblem(path: root, message: "cannot read the whole folder: Input/output error"),
            ScanProblem(path: root + "/sub", message: "cannot read the whole folder: Input/output error"),
        ])
    }

    @Test func aSubfolderThatCannotBeOpenedIsReportedAndSkipped() throws {
        let root = try self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var calls = FileSystemCalls.system
        let real = calls.openat
        calls.openat = { folder, name, flags in name == "sub" ? .failure(FileSystemCalls.Failure(EACCES)) : real(folder, name, flags) }
        let result = self.walk(root, calls: calls)
        #expect(result.ok)
        #expect(result.files.map(\.path) == [root + "/a.bin"])
        #expect(result.errors == [ScanProblem(path: root + "/sub", message: "cannot read the folder: Permission denied")])
    }

    @Test func aRootThatCannotBeListedFailsTheWalk() throws {
        let root = try self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var calls = FileSystemCalls.system
        calls.listFolder = { _ in .failure(FileSystemCalls.Failure(EMFILE)) }
        let result = self.walk(root, calls: calls)
        #expect(!result.ok)
        #expect(result.files.isEmpty)
        #expect(result.errors == [ScanProblem(path: root, message: "cannot read the folder: Too many open files")])
    }

    @Test(arguments: [("read", EIO), ("openat", EACCES), ("openat", ENOENT), ("fstat", EIO)])
    func aFileThatCannotBeReadIsAProblem(call: String, code: Int32) throws {
        let root = try self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = self.walk(root, calls: .system).files
        let file = try #require(files.first { $0.path == root + "/a.bin" })
        var probe = FileProbe()
        let failure = FileSystemCalls.Failure(code)
        switch call {
        case "read": probe.calls.read = { _, _ in .failure(failure) }
        case "openat": probe.calls.openat = { _, _, _ in .failure(failure) }
        default: probe.calls.fstat = { _ in .failure(failure) }
        }
        let reason = String(cString: strerror(code))
        switch (probe.probe(file), call, code) {
        // Deleted after the listing: nothing to say.
        case (.nothing, "openat", ENOENT): break
        case (.failed(let problem), "openat", _):
            #expect(problem == ScanProblem(path: file.path, message: "cannot open: \(reason)"))
        case (.failed(let problem), _, _):
            #expect(problem == ScanProblem(path: file.path, message: "cannot read: \(reason)"))
        case (let outcome, _, _):
            Issue.record("\(call) \(reason): \(outcome)")
        }
    }
}
