import Crypto
import CryptoExtras
import Foundation

/// The two ciphers of an encrypted backup (forensic-formats §2): RFC 3394 AES key unwrap for
/// class keys, `ManifestKey` and each file's key, and AES-256-CBC with a zero IV for
/// `Manifest.db` and the files.
///
/// Both are swift-crypto's: `AES.KeyWrap` and `AES._CBC`. A scan still decides whether a file
/// can be a property list from its first two blocks alone (``decryptStart(_:blocks:with:)``).
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
    /// swift-crypto's `AES._CBC`, which since 4.5 is one BoringSSL `AES_cbc_encrypt` call per
    /// buffer: the key is expanded once and the blocks decrypt at the processor's AES speed (its
    /// 3.x decrypted block by block, each block expanding the key again, 55 times the CPU on
    /// 48 MiB, which is why the system's libcrypto was used through a shim until then).
    static func decrypt(_ ciphertext: some DataProtocol, with key: SymmetricKey, iv: Data) -> Data? {
        guard ciphertext.count % blockSize == 0, iv.count == blockSize, [128, 192, 256].contains(key.bitCount) else { return nil }
        guard !ciphertext.isEmpty else { return Data() }
        guard let chaining = try? AES._CBC.IV(ivBytes: iv) else { return nil }
        return try? AES._CBC.decrypt(ciphertext, using: key, iv: chaining, noPadding: true)
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
