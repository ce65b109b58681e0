import CSpliceShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every file-system call the transfer engine makes, as one value: the system's by default, a
/// fake in tests.
///
/// This is swift-system's approach (one function per system call, so a test can fail or record
/// any single one) kept as plain closures, because the tests need more than errors: their fake
/// keeps what was fsynced apart from what was only written, to play power loss at every step.
/// Each call returns the errno on failure; callers turn it into a ``DownloadError`` naming the path.
package struct FileSystemCalls: Sendable {
    /// What `fstat` / `lstat` report that the engine uses.
    package struct Status: Equatable, Sendable {
        package enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, other }
        package var kind: Kind
        package var size: Int64

        package init(kind: Kind, size: Int64) {
            self.kind = kind
            self.size = size
        }
    }

    /// An errno value.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package var code: Int32
        package init(_ code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(self.code)) }
    }

    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Result<Int32, Failure>
    package var close: @Sendable (_ descriptor: Int32) -> Result<Void, Failure>
    package var fstat: @Sendable (_ descriptor: Int32) -> Result<Status, Failure>
    /// Does not follow a final symbolic link.
    package var lstat: @Sendable (_ path: String) -> Result<Status, Failure>
    package var flock: @Sendable (_ descriptor: Int32, _ operation: Int32) -> Result<Void, Failure>
    package var pread: @Sendable (_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) -> Result<Int, Failure>
    package var pwrite: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int64) -> Result<Int, Failure>
    package var ftruncate: @Sendable (_ descriptor: Int32, _ length: Int64) -> Result<Void, Failure>
    package var fsync: @Sendable (_ descriptor: Int32) -> Result<Void, Failure>
    package var rename: @Sendable (_ from: String, _ to: String) -> Result<Void, Failure>
    package var unlink: @Sendable (_ path: String) -> Result<Void, Failure>
    /// The names in a folder, without `.` and `..`.
    package var listDirectory: @Sendable (_ path: String) -> Result<[String], Failure>
    /// Moves up to `count` bytes from a pipe into a file at `offset` (`splice`); nil where the
    /// system has no splice, and in fakes, whose writes then all go through ``pwrite``.
    package var spliceToFile: (@Sendable (_ pipe: Int32, _ descriptor: Int32, _ count: Int, _ offset: Int64) -> Result<Int, Failure>)?

    package init(
        open: @escaping @Sendable (String, Int32, mode_t) -> Result<Int32, Failure>,
        close: @escaping @Sendable (Int32) -> Result<Void, Failure>,
        fstat: @escaping @Sendable (Int32) -> Result<Status, Failure>,
        lstat: @escaping @Sendable (String) -> Result<Status, Failure>,
        flock: @escaping @Sendable (Int32, Int32) -> Result<Void, Failure>,
        pread: @escaping @Sendable (Int32, UnsafeMutableRawBufferPointer, Int64) -> Result<Int, Failure>,
        pwrite: @escaping @Sendable (Int32, UnsafeRawBufferPointer, Int64) -> Result<Int, Failure>,
        ftruncate: @escaping @Sendable (Int32, Int64) -> Result<Void, Failure>,
        fsync: @escaping @Sendable (Int32) -> Result<Void, Failure>,
        rename: @escaping @Sendable (String, String) -> Result<Void, Failure>,
        unlink: @escaping @Sendable (String) -> Result<Void, Failure>,
        listDirectory: @escaping @Sendable (String) -> Result<[String], Failure>
    ) {
        self.open = open
        self.close = close
        self.fstat = fstat
        self.lstat = lstat
        self.flock = flock
        self.pread = pread
        self.pwrite = pwrite
        self.ftruncate = ftruncate
        self.fsync = fsync
        self.rename = rename
        self.unlink = unlink
        self.listDirectory = listDirectory
    }

    /// The operating system's calls, retried on `EINTR`, with ``spliceToFile`` where the system
    /// has splice(2).
    package static let system: FileSystemCalls = {
        var calls = systemWithoutSplice
        if csplice_available() != 0 {
            calls.spliceToFile = { pipe, descriptor, count, offset in
                check { csplice_to_file(pipe, descriptor, count, offset) }
            }
        }
        return calls
    }()

    private static let systemWithoutSplice = FileSystemCalls(
        open: { path, flags, mode in
            check { system_open(path, flags, mode) }
        },
        close: { descriptor in
            // close is not retried on EINTR: on Linux the descriptor is gone either way.
            system_close(descriptor) == 0 ? .success(()) : .failure(Failure(errno))
        },
        fstat: { descriptor in
            var info = stat()
            return check { system_fstat(descriptor, &info) }.map { _ in status(info) }
        },
        lstat: { path in
            var info = stat()
            return check { system_lstat(path, &info) }.map { _ in status(info) }
        },
        flock: { descriptor, operation in
            check { system_flock(descriptor, operation) }.map { _ in }
        },
        pread: { descriptor, buffer, offset in
            guard let base = buffer.baseAddress else { return .success(0) }
            return check { system_pread(descriptor, base, buffer.count, off_t(offset)) }
        },
        pwrite: { descriptor, bytes, offset in
            guard let base = bytes.baseAddress else { return .success(0) }
            return check { system_pwrite(descriptor, base, bytes.count, off_t(offset)) }
        },
        ftruncate: { descriptor, length in
            check { system_ftruncate(descriptor, off_t(length)) }.map { _ in }
        },
        fsync: { descriptor in
            check { system_fsync(descriptor) }.map { _ in }
        },
        rename: { from, to in
            check { system_rename(from, to) }.map { _ in }
        },
        unlink: { path in
            check { system_unlink(path) }.map { _ in }
        },
        listDirectory: { path in
            guard let directory = opendir(path) else { return .failure(Failure(errno)) }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != ".", name != ".." { names.append(name) }
            }
            return .success(names)
        }
    )

    private static func check<T: BinaryInteger>(_ call: () -> T) -> Result<T, Failure> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            if errno != EINTR { return .failure(Failure(errno)) }
        }
    }

    private static func status(_ info: stat) -> Status {
        let kind: Status.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return Status(kind: kind, size: Int64(info.st_size))
    }
}

// The C library's calls under names the struct's own members cannot shadow.
private func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func system_close(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func system_fstat(_ descriptor: Int32, _ info: inout stat) -> Int32 { fstat(descriptor, &info) }
private func system_lstat(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }
private func system_flock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
private func system_pread(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pread(descriptor, base, count, offset)
}
private func system_pwrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pwrite(descriptor, base, count, offset)
}
private func system_ftruncate(_ descriptor: Int32, _ length: off_t) -> Int32 { ftruncate(descriptor, length) }
private func system_fsync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
private func system_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func system_unlink(_ path: String) -> Int32 { unlink(path) }
