#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes to standard output or standard error without ever trapping: the package's one writer
/// for both.
///
/// `FileHandle.write(_:)` traps when the write fails, and it does fail when standard error is a
/// file on a full disk or a closed pipe: the message saying the disk is full would kill the
/// process. There is nothing useful to do about a failed write to these streams, so it is dropped.
package enum StandardStream {
    package static func write(_ text: String, to descriptor: Int32 = STDERR_FILENO) {
        var text = text
        text.withUTF8 { write($0, to: descriptor) }
    }

    package static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        write(UnsafeRawBufferPointer(bytes), to: descriptor, calls: .system)
    }

    package static func write(_ data: Data, to descriptor: Int32) {
        _ = data.withUnsafeBytes { raw in write(raw, to: descriptor, calls: .system) }
    }

    /// Writes all of `bytes` with `calls.write` (the tests' injection point): a short write goes
    /// on with the rest, a failed one drops the rest; nothing is reported either way.
    /// - Returns: how many bytes were written.
    @discardableResult
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, calls: FileSystemCalls) -> Int {
        calls.writeAll(descriptor, bytes).written
    }
}
