import Crypto
import Foundation
import _CryptoExtras

/// The two ciphers of an encrypted backup (forensic-formats §2): RFC 3394 AES key unwrap for
/// class keys, `ManifestKey` and each file's key, and AES-256-CBC with a zero IV for
/// `Manifest.db` and the files.
///
/// swift-crypto 3.12.3 has both: `AES.KeyWrap` (Crypto) and `AES._CBC` (_CryptoExtras). `_CBC`
/// expands the key again for every 16-byte block, so ``decrypt(_:with:)`` is for whole files that
/// matter, and a scan decides whether a file can be a property list from its first block alone
/// (``decryptFirstBlock(_:with:)``).
package enum BackupCipher {
    package static let blockSize = 16

    /// The key, or nil when the wrapped bytes are not 24 or 40 bytes or fail the integrity check.
    package static func unwrap(_ wrapped: some DataProtocol, with key: SymmetricKey) -> SymmetricKey? {
        guard wrapped.count == 40 || wrapped.count == 24 else { return nil }
        return try? AES.KeyWrap.unwrap(wrapped, using: key)
    }

    /// `4-byte little-endian class || wrapped key`, as `ManifestKey` and `EncryptionKey` hold it.
    package static func splitClassAndKey(_ bytes: Data) -> (protectionClass: UInt32, wrapped: Data)? {
        guard bytes.count > 4 else { return nil }
        let start = bytes.startIndex
        let protectionClass = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * UInt32($1)) }
        return (protectionClass, Data(bytes[(start + 4)...]))
    }

    /// AES-CBC with a zero IV, no padding removed: the caller truncates to the size it knows
    /// (a file's `Size`) or strips PKCS#7 (`Manifest.db`). Nil when the length is not a whole
    /// number of blocks.
    package static func decrypt(_ ciphertext: some DataProtocol, with key: SymmetricKey) -> Data? {
        decrypt(ciphertext, with: key, iv: Data(repeating: 0, count: blockSize))
    }

    /// The same with another IV: the last ciphertext block before a chunk of a longer file.
    ///
    /// CBC decryption is one AES block decryption per block, XOR-ed with the ciphertext block
    /// before it, so it is done here with `AES.inversePermute` (the block function `AES._CBC`
    /// itself uses) straight into one buffer, and a large input (a `Manifest.db` of tens of MiB)
    /// is cut into chunks decrypted on all cores: `AES._CBC` copies every block through generic
    /// collections and took most of an encrypted scan's time on `Manifest.db` alone.
    package static func decrypt(_ ciphertext: some DataProtocol, with key: SymmetricKey, iv: Data) -> Data? {
        guard ciphertext.count % blockSize == 0, iv.count == blockSize, [128, 192, 256].contains(key.bitCount) else { return nil }
        guard !ciphertext.isEmpty else { return Data() }
        let input = [UInt8](ciphertext)
        let ivBytes = [UInt8](iv)
        let blocks = input.count / blockSize
        var output = [UInt8](repeating: 0, count: input.count)
        let chunkBlocks = 1 << 16
        if blocks <= chunkBlocks {
            // A file's first block, a small file: no threads, no copy of the key.
            let decrypted = input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in decryptBlocks(0..<blocks, source, target, key: key, iv: ivBytes) }
            }
            return decrypted ? Data(output) : nil
        }
        let keyBytes = key.withUnsafeBytes { Data($0) }
        let chunks = (blocks + chunkBlocks - 1) / chunkBlocks
        let failed = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                let source = UnsafeSendableBuffer(source), target = UnsafeSendableMutableBuffer(target)
                let failures = FailureCount()
                let work: @Sendable (Int) -> Void = { chunk in
                    let key = SymmetricKey(data: keyBytes)
                    let first = chunk * chunkBlocks, last = min(blocks, first + chunkBlocks)
                    if !decryptBlocks(first..<last, source.pointer, target.pointer, key: key, iv: ivBytes) { failures.add() }
                }
                if chunks == 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
                }
                return failures.count > 0
            }
        }
        return failed ? nil : Data(output)
    }

    /// Decrypts blocks `range` of `source` into `target`; block 0's previous block is `iv`.
    private static func decryptBlocks(_ range: Range<Int>, _ source: UnsafeRawBufferPointer, _ target: UnsafeMutableRawBufferPointer,
                                      key: SymmetricKey, iv: [UInt8]) -> Bool {
        var block = [UInt8](repeating: 0, count: blockSize)
        for index in range {
            let offset = index * blockSize
            for byte in 0..<blockSize { block[byte] = source[offset + byte] }
            do { try AES.inversePermute(&block, key: key) } catch { return false }
            for byte in 0..<blockSize {
                let previous = index == 0 ? iv[byte] : source[offset - blockSize + byte]
                target[offset + byte] = block[byte] ^ previous
            }
        }
        return true
    }

    /// The first block's plaintext (the IV is zero, so it needs nothing else).
    package static func decryptFirstBlock(_ ciphertext: some DataProtocol, with key: SymmetricKey) -> Data? {
        guard ciphertext.count >= blockSize else { return nil }
        return decrypt(ciphertext.prefix(blockSize), with: key)
    }

    /// PKCS#7 padding removed, or nil when the last block does not carry a valid one.
    package static func removingPadding(_ plain: Data) -> Data? {
        guard let last = plain.last, (1...UInt8(blockSize)).contains(last), plain.count >= Int(last) else { return nil }
        let pad = plain.suffix(Int(last))
        guard pad.allSatisfy({ $0 == last }) else { return nil }
        return plain.dropLast(Int(last))
    }
}

/// A buffer handed to `concurrentPerform`'s workers, each of which touches its own blocks only.
private struct UnsafeSendableBuffer: @unchecked Sendable {
    let pointer: UnsafeRawBufferPointer
    init(_ pointer: UnsafeRawBufferPointer) { self.pointer = pointer }
}

private struct UnsafeSendableMutableBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawBufferPointer
    init(_ pointer: UnsafeMutableRawBufferPointer) { self.pointer = pointer }
}

/// How many workers failed; counted under a lock.
private final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
