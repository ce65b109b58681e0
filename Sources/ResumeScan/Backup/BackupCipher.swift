internal import CCryptoShim
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two ciphers of an encrypted backup (forensic-formats §2): RFC 3394 AES key unwrap for
/// class keys, `ManifestKey` and each file's key, and AES-256-CBC with a zero IV for
/// `Manifest.db` and the files.
///
/// The key unwrap is swift-crypto's `AES.KeyWrap`; CBC is the system's libcrypto through
/// ``CCryptoShim`` (swift-crypto 3.12.3 has CBC only block by block). A scan still decides whether
/// a file can be a property list from its first block alone (``decryptFirstBlock(_:with:)``).
enum BackupCipher {
    static let blockSize = 16

    /// The key, or nil when the wrapped bytes are not 24 or 40 bytes or fail the integrity check.
    static func unwrap(_ wrapped: some DataProtocol, with key: SymmetricKey) -> SymmetricKey? {
        guard wrapped.count == 40 || wrapped.count == 24 else { return nil }
        return try? AES.KeyWrap.unwrap(wrapped, using: key)
    }

    /// `4-byte little-endian class || wrapped key`, as `ManifestKey` and `EncryptionKey` hold it.
    static func splitClassAndKey(_ bytes: Data) -> (protectionClass: UInt32, wrapped: Data)? {
        guard bytes.count > 4 else { return nil }
        let start = bytes.startIndex
        let protectionClass = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * UInt32($1)) }
        return (protectionClass, Data(bytes[(start + 4)...]))
    }

    /// AES-CBC with a zero IV, no padding removed: the caller truncates to the size it knows
    /// (a file's `Size`) or strips PKCS#7 (`Manifest.db`). Nil when the length is not a whole
    /// number of blocks.
    static func decrypt(_ ciphertext: some DataProtocol, with key: SymmetricKey) -> Data? {
        decrypt(ciphertext, with: key, iv: zeroIV)
    }

    /// Made once: a scan decrypts the first block of every file with it.
    private static let zeroIV = Data(repeating: 0, count: blockSize)

    /// The same with another IV: the last ciphertext block before a chunk of a longer file.
    ///
    /// One call into the system's libcrypto (``CCryptoShim``), which expands the key once and
    /// decrypts at the processor's AES speed: swift-crypto offers CBC only block by block, each
    /// block expanding the key again, and that took most of an encrypted scan's time beside the
    /// key derivation (a `Manifest.db` of tens of MiB, a first block of every file); its
    /// `AES._CBC` costs 55 times libcrypto's CPU on 48 MiB (Benchmarks/RESULTS.md).
    static func decrypt(_ ciphertext: some DataProtocol, with key: SymmetricKey, iv: Data) -> Data? {
        guard ciphertext.count % blockSize == 0, iv.count == blockSize, [128, 192, 256].contains(key.bitCount) else { return nil }
        guard !ciphertext.isEmpty else { return Data() }
        let decrypted = ciphertext.withContiguousStorageIfAvailable { decrypt($0, with: key, iv: iv) }
        return decrypted ?? [UInt8](ciphertext).withUnsafeBufferPointer { decrypt($0, with: key, iv: iv) }
    }

    /// Decrypts whole blocks into a buffer that is not zeroed first: every byte is written.
    private static func decrypt(_ input: UnsafeBufferPointer<UInt8>, with key: SymmetricKey, iv: Data) -> Data? {
        guard let inputBase = input.baseAddress, let output = malloc(input.count) else { return nil }
        let status = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBytes { ivBytes in
                ccrypto_aes_cbc_decrypt(keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), keyBytes.count,
                                        ivBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), inputBase,
                                        output.assumingMemoryBound(to: UInt8.self), input.count)
            }
        }
        guard status == CCRYPTO_OK.rawValue else {
            free(output)
            return nil
        }
        return Data(bytesNoCopy: output, count: input.count, deallocator: .free)
    }

    /// The plaintext of the whole blocks among the first `blocks` (the IV is zero, so the start
    /// needs nothing else); nil when not even one block is there.
    static func decryptStart(_ ciphertext: some DataProtocol, blocks: Int, with key: SymmetricKey) -> Data? {
        let whole = min(ciphertext.count / blockSize, max(1, blocks))
        guard whole >= 1 else { return nil }
        return decrypt(ciphertext.prefix(whole * blockSize), with: key)
    }

    /// PKCS#7 padding removed, or nil when the last block does not carry a valid one.
    static func removingPadding(_ plain: Data) -> Data? {
        guard let last = plain.last, (1...UInt8(blockSize)).contains(last), plain.count >= Int(last) else { return nil }
        let pad = plain.suffix(Int(last))
        guard pad.allSatisfy({ $0 == last }) else { return nil }
        return plain.dropLast(Int(last))
    }
}
