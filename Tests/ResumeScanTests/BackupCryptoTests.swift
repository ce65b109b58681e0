import Crypto
import Foundation
import Testing
import _CryptoExtras
@testable import ResumeScan

/// The pieces of an encrypted backup against published vectors (RFC 3394, NIST SP 800-38A) and
/// against Python's hashlib: key unwrap, CBC with a zero IV, the two-stage PBKDF2 of the keybag,
/// and every way a keybag is refused.
@Suite struct BackupCryptoTests {
    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    static func hex(_ key: SymmetricKey) -> String {
        key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    /// RFC 3394 §4.6: a 256-bit key wrapped with a 256-bit key.
    @Test func keyUnwrapVector() throws {
        let kek = SymmetricKey(data: Self.bytes("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
        let wrapped = Self.bytes("28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21")
        let key = try #require(BackupCipher.unwrap(wrapped, with: kek))
        #expect(Self.hex(key) == "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f")
        var damaged = wrapped
        damaged[5] ^= 1
        #expect(BackupCipher.unwrap(damaged, with: kek) == nil)
        #expect(BackupCipher.unwrap(wrapped.prefix(39), with: kek) == nil)
    }

    /// NIST SP 800-38A F.2.6 (CBC-AES256.Decrypt), with the IV folded into the first block's
    /// plaintext since backups use a zero IV.
    @Test func cbcVector() throws {
        let key = SymmetricKey(data: Self.bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
        let ciphertext = Self.bytes("f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d")
        let plain = try #require(BackupCipher.decrypt(ciphertext, with: key))
        #expect(plain == Self.bytes("6bc0bce12a459991e134741a7f9e1925ae2d8a571e03ac9c9eb76fac45af8e51"))
        #expect(BackupCipher.decryptFirstBlock(ciphertext, with: key) == Self.bytes("6bc0bce12a459991e134741a7f9e1925"))
        #expect(BackupCipher.decrypt(ciphertext.prefix(31), with: key) == nil)
        #expect(BackupCipher.decrypt(Data(), with: key) == Data())
        #expect(BackupCipher.decryptFirstBlock(ciphertext.prefix(15), with: key) == nil)
    }

    /// A buffer large enough to be cut into chunks decrypted on several cores (each chunk's IV is
    /// the ciphertext block before it) decrypts as `AES._CBC` encrypted it, with a zero IV and another.
    @Test func cbcInChunks() throws {
        let key = SymmetricKey(data: Data((0..<32).map { UInt8($0 * 7 & 0xFF) }))
        let plain = Data((0..<(3 << 20) + 48).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let zero = try AES._CBC.encrypt(plain, using: key, iv: AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)), noPadding: true)
        #expect(BackupCipher.decrypt(zero, with: key) == plain)
        let iv = Data(repeating: 0xA5, count: 16)
        let other = try AES._CBC.encrypt(plain, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        #expect(BackupCipher.decrypt(other, with: key, iv: iv) == plain)
        #expect(BackupCipher.decrypt(other, with: key, iv: iv.prefix(15)) == nil)
    }

    @Test func padding() {
        #expect(BackupCipher.removingPadding(Data([1, 2, 3, 3, 3, 3])) == Data([1, 2, 3]))
        #expect(BackupCipher.removingPadding(Data([1, 2, 0])) == nil)
        #expect(BackupCipher.removingPadding(Data([1, 2, 2, 3])) == nil)
        #expect(BackupCipher.removingPadding(Data([17])) == nil)
        #expect(BackupCipher.removingPadding(Data()) == nil)
    }

    @Test func classAndKey() throws {
        let split = try #require(BackupCipher.splitClassAndKey(Data([4, 0, 0, 0, 9, 9]).dropFirst(0)))
        #expect(split.protectionClass == 4)
        #expect(split.wrapped == Data([9, 9]))
        #expect(BackupCipher.splitClassAndKey(Data([1, 0, 0, 0])) == nil)
    }

    static func record(_ tag: String, _ value: Data) -> Data {
        var data = Data(tag.utf8)
        withUnsafeBytes(of: UInt32(value.count).bigEndian) { data.append(contentsOf: $0) }
        return data + value
    }

    static func number(_ tag: String, _ value: UInt32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { record(tag, Data($0)) }
    }

    static let dpsl = Data(0..<20)
    static let salt = Data(20..<40)
    /// `pbkdf2_hmac('sha1', pbkdf2_hmac('sha256', b'pass word', dpsl, 1000, 32), salt, 100, 32)`.
    static let passcodeKey = "b87d16f921107b7a1dee8562532caf84f8fe9dfa8dfd8287c61434a617817755"
    static var classKey: SymmetricKey { SymmetricKey(data: Data(repeating: 0x42, count: 32)) }

    /// A keybag as iOS writes one (global tags, an unknown `HMCK`, two class keys, one of them
    /// not wrapped with the password).
    static func keybag(dpic: UInt32 = 1000, iterations: UInt32 = 100, wrappedKey: Data? = nil) throws -> Data {
        let kek = SymmetricKey(data: bytes(passcodeKey))
        let wrapped = try wrappedKey ?? AES.KeyWrap.wrap(classKey, using: kek)
        var bag = number("VERS", 4) + number("TYPE", 1)
        bag += record("UUID", Data(repeating: 1, count: 16)) + record("HMCK", Data(repeating: 7, count: 40))
        bag += number("WRAP", 0) + record("SALT", salt) + number("ITER", iterations)
        bag += number("DPWT", 1) + number("DPIC", dpic) + record("DPSL", dpsl)
        bag += record("UUID", Data(repeating: 2, count: 16)) + number("CLAS", 3) + number("WRAP", 2)
        bag += number("KTYP", 0) + record("WPKY", wrapped)
        bag += record("UUID", Data(repeating: 3, count: 16)) + number("CLAS", 6) + number("WRAP", 1)
        bag += number("KTYP", 0) + record("WPKY", Data(repeating: 9, count: 40))
        return bag
    }

    @Test func keybagUnlocks() throws {
        let keybag = try BackupKeybag(try Self.keybag())
        #expect(keybag.iterations == 100)
        #expect(keybag.doubleProtectionIterations == 1000)
        #expect(keybag.salt == Self.salt)
        #expect(keybag.doubleProtectionSalt == Self.dpsl)
        #expect(keybag.classKeys.map(\.protectionClass) == [3, 6])
        #expect(keybag.classKeys.map(\.wrap) == [2, 1])
        let key = try keybag.passcodeKey(password: Data("pass word".utf8))
        #expect(Self.hex(key) == Self.passcodeKey)
        let classes = try keybag.unlock(with: key)
        #expect(Array(classes.keys) == [3])
        #expect(classes[3].map(Self.hex) == Self.hex(Self.classKey))
    }

    @Test func wrongPassword() throws {
        let keybag = try BackupKeybag(try Self.keybag())
        let key = try keybag.passcodeKey(password: Data("pass Word".utf8))
        #expect(throws: BackupError.wrongPassword) { try keybag.unlock(with: key) }
    }

    /// Without `DPSL`/`DPIC` (before iOS 10.2) the SHA-256 stage is skipped:
    /// `pbkdf2_hmac('sha1', b'pass word', salt, 100, 32)`.
    @Test func singleStage() throws {
        let keybag = try BackupKeybag(Self.number("UUID", 1) + Self.record("SALT", Self.salt) + Self.number("ITER", 100)
                                      + Self.number("UUID", 2) + Self.number("CLAS", 1) + Self.number("WRAP", 2)
                                      + Self.record("WPKY", Data(repeating: 0, count: 40)))
        #expect(Self.hex(try keybag.passcodeKey(password: Data("pass word".utf8)))
                == "20440ccbdbb7db2114275b041c89e029f813d4534111cceb5c004e2e0efb25fd")
    }

    @Test func refusedKeybags() throws {
        func message(_ bytes: Data) -> String? {
            do {
                _ = try BackupKeybag(bytes)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(try Self.keybag(dpic: 20_000_001))
                == "its keybag cannot be used: DPIC is 20000001, more than the 20000000 this tool accepts")
        #expect(message(try Self.keybag(iterations: 1_000_001))
                == "its keybag cannot be used: ITER is 1000001, more than the 1000000 this tool accepts")
        #expect(message(try Self.keybag(dpic: 0xFFFF_FFFF))
                == "its keybag cannot be used: DPIC is 4294967295, more than the 20000000 this tool accepts")
        #expect(message(try Self.keybag(iterations: 0)) == "its keybag cannot be used: it has no SALT or ITER")
        let whole = try Self.keybag()
        #expect(message(whole.prefix(whole.count - 1)) == "its keybag cannot be used: the value of WPKY runs past the end")
        #expect(message(whole + Data([1, 2, 3])) == "its keybag cannot be used: a record header is cut short at byte \(whole.count)")
        #expect(message(Self.record("ITER", Data([1, 2]))) == "its keybag cannot be used: ITER is 2 bytes, not 4")
        #expect(message(Self.record("SALT", Self.salt) + Self.number("ITER", 5)) == "its keybag cannot be used: it holds no class key")
        #expect(message(Data()) == "its keybag cannot be used: it has no SALT or ITER")
        // A keybag whose only class key is not wrapped with the password cannot be unlocked.
        let deviceOnly = try BackupKeybag(Self.number("UUID", 1) + Self.record("SALT", Self.salt) + Self.number("ITER", 1)
                                          + Self.number("UUID", 2) + Self.number("CLAS", 1) + Self.number("WRAP", 1))
        #expect(throws: BackupError.keybag("no class key is wrapped with the password")) {
            try deviceOnly.unlock(with: SymmetricKey(size: .bits256))
        }
    }
}
