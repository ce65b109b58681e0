#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import ResumeScan
@testable import ResumeSystemCalls
import Synchronization
import Testing

/// Every read of an archive goes through the system-call seam (``ArchiveSource``): libarchive's
/// reads of a zip or tar and the gzip inflater's reads on its own thread alike. Short reads give
/// the same members; a failing read is an error that says what failed, on either path.
@Suite struct ArchiveSourceTests {
    /// The archive kinds, each read by another path of the shim: a `.tar.gz` by the inflater's
    /// thread, a `.tar` and a `.zip` by libarchive itself (the tar skipping what is not read).
    static let kinds = ["tar.gz", "tar", "zip"]

    /// Reads that go through the seam: each `pread` gives at most `longest` bytes, and those
    /// after the first `failingAfter` fail with EIO.
    final class SeamReads: Sendable {
        let count = Mutex(0)
        let longest: Int
        let failingAfter: Int?

        init(longest: Int = .max, failingAfter: Int? = nil) {
            self.longest = longest
            self.failingAfter = failingAfter
        }

        var calls: FileSystemCalls {
            var calls = FileSystemCalls.system
            let real = calls.pread
            calls.pread = { descriptor, buffer, offset in
                let index = self.count.withLock { count in
                    defer { count += 1 }
                    return count
                }
                if let failingAfter = self.failingAfter, index >= failingAfter { return .failure(FileSystemCalls.Failure(EIO)) }
                return real(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(self.longest)), offset)
            }
            return calls
        }

        var reads: Int { self.count.withLock { $0 } }
    }

    /// Writes `archive.KIND` in `folder` with Python's tarfile or zipfile: 40 members of 30,000
    /// seeded random bytes each, so that no block holds the whole archive.
    static func archive(_ kind: String, in folder: String) throws -> String {
        let code = """
            import io, random, sys, tarfile, zipfile
            kind = sys.argv[1]
            rng = random.Random(7)
            members = [(f"dir/member-{i:02}.bin", bytes(rng.getrandbits(8) for _ in range(30000))) for i in range(40)]
            path = "archive." + kind
            if kind == "zip":
                with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
                    for name, data in members: archive.writestr(name, data)
            else:
                with tarfile.open(path, "w:gz" if kind == "tar.gz" else "w") as archive:
                    for name, data in members:
                        info = tarfile.TarInfo(name)
                        info.size = len(data)
                        archive.addfile(info, io.BytesIO(data))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code, kind]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return folder + "/archive." + kind
    }

    static func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "archive-source-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Each member's name and bytes (its bytes only when `reading`, else it is passed over).
    static func members(of path: String, calls: FileSystemCalls, reading: Bool = true) throws -> [(String, Data)] {
        let reader = try ArchiveReader(path: path, calls: calls)
        var all: [(String, Data)] = []
        while let member = try reader.next() {
            all.append((member.name, reading ? try reader.contents(upTo: 1 << 20) ?? Data() : Data()))
        }
        return all
    }

    @Test(arguments: kinds)
    func shortReadsGiveTheSameMembers(kind: String) throws {
        try Self.withFolder { folder in
            let path = try Self.archive(kind, in: folder)
            let whole = SeamReads()
            let expected = try Self.members(of: path, calls: whole.calls)
            #expect(expected.count == 40)
            #expect(expected.first?.0 == "dir/member-00.bin")
            #expect(expected.allSatisfy { $0.1.count == 30_000 })
            // Every read went through the seam: without it none would be counted.
            #expect(whole.reads >= 2)

            let short = SeamReads(longest: 777)
            let got = try Self.members(of: path, calls: short.calls)
            #expect(got.map(\.0) == expected.map(\.0))
            #expect(got.map(\.1) == expected.map(\.1))
            #expect(short.reads > whole.reads)
        }
    }

    /// Members listed without their bytes read: the tar's are passed over (the skip callback),
    /// and the list is the same.
    @Test(arguments: kinds)
    func membersPassedOverAreListedAlike(kind: String) throws {
        try Self.withFolder { folder in
            let path = try Self.archive(kind, in: folder)
            let read = try Self.members(of: path, calls: .system)
            let skipped = SeamReads()
            let listed = try Self.members(of: path, calls: skipped.calls, reading: false)
            #expect(listed.map(\.0) == read.map(\.0))
            #expect(skipped.reads >= 1)
        }
    }

    /// A read that fails in the middle of the archive: an error naming the failure, on the
    /// inflater's thread and on libarchive's alike.
    @Test(arguments: kinds)
    func aFailingReadIsAnErrorThatSaysWhy(kind: String) throws {
        try Self.withFolder { folder in
            let path = try Self.archive(kind, in: folder)
            // The first read decides gzip or not; the zip reader then reads its central
            // directory at the end. Ten reads in (about 10 × 64 KiB of the 1.2 MB), a read fails.
            let failing = SeamReads(failingAfter: 10)
            do {
                let members = try Self.members(of: path, calls: failing.calls)
                Issue.record("read \(members.count) members through a failing read")
            } catch let failure as ArchiveReader.Failure {
                #expect("\(failure)".contains(String(cString: strerror(EIO))), "\(failure)")
                if case .corrupt = failure {} else { Issue.record("expected the archive to fail part way: \(failure)") }
            }
            #expect(failing.reads >= 11)
        }
    }

    /// A read that fails before libarchive has seen a header: the archive cannot be opened,
    /// and the error says the read failed, not that it is no archive.
    @Test(arguments: kinds)
    func aReadFailingAtTheStartCannotOpenTheArchive(kind: String) throws {
        try Self.withFolder { folder in
            let path = try Self.archive(kind, in: folder)
            // The one read that decides gzip or not, then nothing.
            let failing = SeamReads(failingAfter: 1)
            #expect(throws: ArchiveReader.Failure.cannotOpen("cannot read the file: \(String(cString: strerror(EIO)))")) {
                try Self.members(of: path, calls: failing.calls)
            }
        }
    }
}
