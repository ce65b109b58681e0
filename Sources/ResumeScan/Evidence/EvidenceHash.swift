import Crypto
import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// SHA-256 of evidence, spelled as `SHA256Hex` spells every digest of the package.
enum EvidenceHash {
    static func hex(of data: some DataProtocol) -> String {
        SHA256Hex(digest: SHA256.hash(data: data)).text
    }

    /// The digest of everything in an open file from its start, read a MiB at a time; nil when a
    /// read fails.
    static func hex(ofDescriptor descriptor: Int32, calls: FileSystemCalls) -> String? {
        guard case .success = calls.seek(descriptor, 0) else { return nil }
        var hasher = SHA256()
        // Not zeroed: every finding is hashed, and a zeroed MiB for each was 1 % of a scan's CPU.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got: Int
            switch calls.read(descriptor, buffer) {
            case .success(let count): got = min(max(count, 0), buffer.count)
            case .failure: return nil
            }
            if got == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<got]))
        }
        return SHA256Hex(digest: hasher.finalize()).text
    }
}
