import Foundation
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The password of encrypted backups, from a file or typed at the terminal; never from argv,
/// where every user of the machine could read it.
enum BackupPassword {
    /// The file's first line, without its line ending.
    static func read(from path: String) throws(Diagnostic) -> Data {
        let data = try InputFile(path).read(limit: 1 << 16)
        let line = data.prefix { $0 != UInt8(ascii: "\n") }
        return line.last == UInt8(ascii: "\r") ? Data(line.dropLast()) : Data(line)
    }

    /// Asks on the controlling terminal with echo off, when standard input is one; nil otherwise
    /// (a script gets the encrypted files counted as unread, not a hang).
    static func prompt() -> Data? {
        guard Terminal.isTerminal(STDIN_FILENO) else { return nil }
        return Terminal.withEchoOff(STDIN_FILENO) {
            // Echo is off before the prompt shows: nothing typed at once is echoed. A backup below
            // a folder is met mid-walk: the progress line is cleared, not run into.
            StandardStream.write((Terminal.isTerminal(STDERR_FILENO) ? "\r\u{1B}[K" : "") + "Password of the encrypted backup: ")
            defer { StandardStream.write("\n") }
            var bytes: [UInt8] = []
            while bytes.count < 1 << 16, let byte = readByte(STDIN_FILENO), byte != UInt8(ascii: "\n") { bytes.append(byte) }
            return bytes.isEmpty ? nil : Data(bytes)
        }
    }
}

/// One byte from a descriptor (through the seam, which retries on EINTR); nil at the end or on
/// an error.
private func readByte(_ descriptor: Int32, calls: FileSystemCalls = .system) -> UInt8? {
    var byte: UInt8 = 0
    let count = withUnsafeMutableBytes(of: &byte) { calls.read(descriptor, $0) }
    guard case .success(1) = count else { return nil }
    return byte
}
