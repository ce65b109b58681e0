#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes to standard output or standard error without ever trapping.
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
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = systemWrite(descriptor, base + done, bytes.count - done)
            if count > 0 {
                done += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    package static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { raw in write(raw.bindMemory(to: UInt8.self), to: descriptor) }
    }
}

/// The C library's `write`, which the enum's own `write` would shadow.
private func systemWrite(_ descriptor: Int32, _ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, base, count)
}
