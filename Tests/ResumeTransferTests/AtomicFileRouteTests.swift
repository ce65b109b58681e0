#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import ResumeSystemCalls
@testable import ResumeTransfer
import Testing
@testable import ResumeSupport

/// How an output is written, by what stands at its path: a file or a link is replaced by a
/// rename, a character device or FIFO is written through (renaming over `/dev/null` would
/// replace the device node for root), a folder, block device or socket is refused.
@Suite struct AtomicFileRouteTests {
    private func status(_ kind: FileSystemCalls.Status.Kind, mode: mode_t = 0) -> FileSystemCalls.Status {
        var status = FileSystemCalls.Status(kind: kind, size: 0)
        status.mode = UInt32(mode)
        return status
    }

    @Test func eachKindOfDestinationHasItsRoute() {
        #expect(AtomicFile.route(for: nil) == .replace)
        #expect(AtomicFile.route(for: status(.regular, mode: S_IFREG | 0o644)) == .replace)
        #expect(AtomicFile.route(for: status(.symbolicLink, mode: S_IFLNK | 0o777)) == .replace)
        #expect(AtomicFile.route(for: status(.other, mode: S_IFCHR | 0o666)) == .writeThrough)
        #expect(AtomicFile.route(for: status(.other, mode: S_IFIFO | 0o600)) == .writeThrough)
        #expect(AtomicFile.route(for: status(.directory, mode: S_IFDIR | 0o755)) == .refuse(.init(operation: "open", code: EISDIR)))
        #expect(AtomicFile.route(for: status(.other, mode: S_IFBLK | 0o660))
            == .refuse(.init(operation: "refusing to write over a block device", code: EPERM)))
        #expect(AtomicFile.route(for: status(.other, mode: S_IFSOCK | 0o755))
            == .refuse(.init(operation: "refusing to write over a socket", code: EPERM)))
        // A fake that says "other" without type bits gets nothing written.
        #expect(AtomicFile.route(for: status(.other)) == .refuse(.init(operation: "refusing to write over a socket", code: EPERM)))
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
        let folder = NSTemporaryDirectory() + "atomic-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader opens first in its own thread; the writer's open then finds it.
        nonisolated(unsafe) var received = Data()
        // read(2) to the end, as a pipe's reader does (Foundation's contents(atPath:) takes a
        // FIFO's size of 0 at its word, and its early close would end this process by SIGPIPE).
        let reader = Thread {
            let descriptor = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(contentsOf: buffer[..<count])
            }
            close(descriptor)
        }
        reader.start()
        try AtomicFile.write(Data("through the pipe".utf8), to: fifo)
        while !reader.isFinished { usleep(1_000) }
        #expect(String(decoding: received, as: UTF8.self) == "through the pipe")
        var info = stat()
        #expect(lstat(fifo, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pipe"])
    }
}
