import Foundation
import ResumeSystemCalls
import Testing

@testable import ResumeScan

/// Listing an archive found in a folder costs no file an extra open or read: the test is made on
/// the first bytes every file's triage reads anyway, and only the archive's size is asked more.
@Suite struct FoundArchiveCostTests {
    /// Counts the calls a scan makes.
    final class Counts: @unchecked Sendable {
        // Written only under `lock`.
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func add(_ name: String) {
            lock.lock()
            counts[name, default: 0] += 1
            lock.unlock()
        }
        subscript(name: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            return counts[name, default: 0]
        }
    }

    /// A folder of four small files, the last a zip when `withZip`, else text of the same size.
    static func scan(withZip: Bool) throws -> (inventory: ScanInventory, counts: Counts) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("found-archive-cost-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.txt", "b.txt", "c.txt"] { try Data("plain text\n".utf8).write(to: folder.appendingPathComponent(name)) }
        // A stored zip's local header, as the first bytes of a real one are.
        let zipStart: [UInt8] = [0x50, 0x4B, 3, 4, 10, 0, 0, 0, 0, 0]
        let last = withZip ? zipStart + [UInt8](repeating: 0x20, count: 100) : [UInt8](repeating: 0x20, count: 110)
        try Data(last).write(to: folder.appendingPathComponent("d.bin"))
        let counts = Counts()
        var calls = FileSystemCalls.system
        let system = FileSystemCalls.system
        calls.openat = { folder, name, flags in counts.add("open"); return system.openat(folder, name, flags) }
        calls.read = { descriptor, buffer in counts.add("read"); return system.read(descriptor, buffer) }
        calls.fstat = { descriptor in counts.add("fstat"); return system.fstat(descriptor) }
        var job = ScanJob(roots: [folder.path])
        job.probe.calls = calls
        return (job.run().inventory, counts)
    }

    /// `--open-archives` opens an archive only while the ones opened before it hold fewer members
    /// than its bound: the rest are listed, and said not read.
    @Test func archivesOpenedCountAgainstOneBound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("found-archive-bound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["one.txt", "two.txt"] { try Data("plain text\n".utf8).write(to: folder.appendingPathComponent(name)) }
        for archive in ["a.zip", "b.zip", "c.zip"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["zip", "-q", "-j", folder.appendingPathComponent(archive).path,
                                 folder.appendingPathComponent("one.txt").path, folder.appendingPathComponent("two.txt").path]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
        }
        var job = ScanJob(roots: [folder.path])
        job.opensArchives = true
        job.openedArchiveMemberBudget = 3
        let inventory = job.run().inventory
        #expect(inventory.foundArchives.map { BytePath($0.path).lastName.text } == ["a.zip", "b.zip", "c.zip"])
        #expect(inventory.archives.map { BytePath($0.root).lastName.text } == ["a.zip", "b.zip"])
        #expect(inventory.archives.map(\.memberCount) == [2, 2])
        #expect(inventory.errors.map(\.path) == [folder.path + "/c.zip"])
        #expect(inventory.errors.map(\.message) == [
            "not read as an archive: the archives opened before it hold 4 members, at least the 3 that --open-archives reads in all; scan it by itself",
        ])
    }

    @Test func listingAnArchiveOpensAndReadsNothingMore() throws {
        let plain = try Self.scan(withZip: false)
        let zip = try Self.scan(withZip: true)
        #expect(plain.inventory.foundArchives.isEmpty)
        #expect(zip.inventory.foundArchives.map(\.kind) == ["zip"])
        #expect(zip.inventory.foundArchives.map(\.file.size) == [110])
        // The folder and its four files.
        #expect(plain.counts["open"] == 5)
        #expect(zip.counts["open"] == plain.counts["open"])
        #expect(zip.counts["read"] == plain.counts["read"])
        // Its size, which the report gives, is the one call more.
        #expect(zip.counts["fstat"] == plain.counts["fstat"] + 1)
    }
}
