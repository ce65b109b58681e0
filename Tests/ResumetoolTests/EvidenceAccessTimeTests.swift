import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 25: scanning evidence gives none of its files a new access time (`O_NOATIME`, through
/// `FileSystemCalls.openEvidence`). On tmpfs with the default `relatime`, a read updates an access
/// time older than the modification time; the control read with `cat` shows the test would see it.
@Suite struct EvidenceAccessTimeTests {
    private func accessTime(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return info.st_atim.tv_sec
    }

    /// Sets the access time two days before the modification time.
    private func backdate(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        var times = [timespec(tv_sec: info.st_mtim.tv_sec - 172_800, tv_nsec: 0), info.st_mtim]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func scanningAFolderAndAnArchiveLeavesEveryAccessTime() throws {
        let folder = "/dev/shm/evidence-atime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/tree/tmp", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let samples = EndToEnd.samples
        let blob = folder + "/tree/ios9-xml.plist", partial = folder + "/tree/tmp/CFNetworkDownload_Occ2S2.tmp"
        try FileManager.default.copyItem(atPath: samples.appendingPathComponent("ios9-xml.plist").path, toPath: blob)
        try FileManager.default.copyItem(atPath: samples.appendingPathComponent("CFNetworkDownload_Occ2S2.tmp").path, toPath: partial)
        let tar = try ToolRunner.capture(URL(fileURLWithPath: "/bin/tar"), ["-cf", folder + "/tree.tar", "-C", folder, "tree"])
        #expect(tar.status == 0)
        let files = [blob, partial, folder + "/tree.tar"]
        for file in files { backdate(file) }
        let before = files.map(accessTime)

        let result = try ToolRunner.run(["scan", folder + "/tree", folder + "/tree.tar"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ios9-xml.plist"))
        #expect(files.map(accessTime) == before)

        // The control: an ordinary read does update it here.
        let read = try ToolRunner.capture(URL(fileURLWithPath: "/bin/cat"), [blob])
        #expect(read.status == 0)
        #expect(accessTime(blob) > before[0])
    }
}
