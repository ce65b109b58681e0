import Foundation
import ResumeSystemCalls
import ResumeTransfer

/// Standard output buffered in memory and written in chunks, so a report on thousands of blobs
/// neither makes a system call per line nor holds the whole report.
struct StandardOutput {
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes once 64 KiB are waiting.
    mutating func flushIfLarge() {
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Writes everything waiting, before a diagnostic goes to standard error or at the end, so
    /// the two streams interleave in the order things happened.
    mutating func flush() {
        Self.write(&bytes)
    }

    /// Writes `bytes` to standard output and empties them (for a report that builds its own buffer).
    static func write(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { StandardStream.write($0, to: STDOUT_FILENO) }
        bytes.removeAll(keepingCapacity: true)
    }
}
