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
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got: Int
            switch buffer.withUnsafeMutableBytes({ calls.read(descriptor, $0) }) {
            case .success(let count): got = count
            case .failure: return nil
            }
            if got == 0 { break }
            hasher.update(data: buffer[..<got])
        }
        return SHA256Hex(digest: hasher.finalize()).text
    }
}
