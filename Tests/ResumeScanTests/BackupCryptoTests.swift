import Crypto
import Dispatch
import Foundation
import Testing
import CryptoExtras
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
        #expect(BackupCipher.decryptStart(ciphertext, blocks: 1, with: key) == Self.bytes("6bc0bce12a459991e134741a7f9e1925"))
        #expect(BackupCipher.decryptStart(ciphertext, blocks: 2, with: key) == plain)
        #expect(BackupCipher.decryptStart(ciphertext, blocks: 3, with: key) == plain)
        #expect(BackupCipher.decryptStart(ciphertext.prefix(31), blocks: 2, with: key) == Self.bytes("6bc0bce12a459991e134741a7f9e1925"))
        #expect(BackupCipher.decrypt(ciphertext.prefix(31), with: key) == nil)
        #expect(BackupCipher.decrypt(Data(), with: key) == Data())
        #expect(BackupCipher.decryptStart(ciphertext.prefix(15), blocks: 2, with: key) == nil)
    }

    /// NIST SP 800-38A F.2.2, F.2.4, F.2.6 (CBC-AES128/192/256.Decrypt): four blocks each, with
    /// the published IV; the input also as a slice that does not start at index 0.
    @Test(arguments: [
        ("2b7e151628aed2a6abf7158809cf4f3c",
         "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"),
        ("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
         "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd"),
        ("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
         "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"),
    ])
    func cbcNISTVectors(key: String, ciphertext: String) throws {
        let plaintext = Self.bytes("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                                   + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let key = SymmetricKey(data: Self.bytes(key))
        let iv = Self.bytes("000102030405060708090a0b0c0d0e0f")
        let ciphertext = Self.bytes(ciphertext)
        #expect(BackupCipher.decrypt(ciphertext, with: key, iv: iv) == plaintext)
        let slice = (Data([0xEE, 0xEE, 0xEE]) + ciphertext).dropFirst(3)
        #expect(slice.startIndex == 3)
        #expect(BackupCipher.decrypt(slice, with: key, iv: iv) == plaintext)
        // The second block alone, chained from the first ciphertext block as a chunk's IV is.
        #expect(BackupCipher.decrypt(ciphertext[16..<32], with: key, iv: ciphertext.prefix(16)) == plaintext[16..<32])
    }

    /// Every refusal is nil: a length that is not whole blocks, a key that is not 128, 192 or 256
    /// bits, an IV that is not one block.
    @Test func cbcRefusals() {
        let key = SymmetricKey(data: Data(repeating: 1, count: 32))
        for length in [1, 15, 17, 31, 33, 4097] {
            #expect(BackupCipher.decrypt(Data(repeating: 0, count: length), with: key) == nil, "length \(length)")
        }
        for size in [1, 8, 15, 20, 31, 33, 64] {
            #expect(BackupCipher.decrypt(Data(repeating: 0, count: 32), with: SymmetricKey(data: Data(repeating: 1, count: size))) == nil,
                    "key of \(size) bytes")
        }
        for ivSize in [0, 15, 17, 32] {
            #expect(BackupCipher.decrypt(Data(repeating: 0, count: 32), with: key, iv: Data(repeating: 0, count: ivSize)) == nil,
                    "IV of \(ivSize) bytes")
        }
        #expect(BackupCipher.decrypt(Data(), with: SymmetricKey(data: Data(repeating: 1, count: 20))) == nil)
        #expect(BackupCipher.decrypt(Data(), with: key) == Data())
    }

    /// A buffer of several MiB (a Manifest.db's size class) decrypts as swift-crypto's own CBC
    /// does, in both directions, with a zero IV and another, and from input that is not one
    /// contiguous region (DispatchData of two parts).
    @Test func cbcLarge() throws {
        let key = SymmetricKey(data: Data((0..<32).map { UInt8($0 * 7 & 0xFF) }))
        let plain = Data((0..<(3 << 20) + 48).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let zeroIV = try AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16))
        let zero = try AES._CBC.encrypt(plain, using: key, iv: zeroIV, noPadding: true)
        #expect(BackupCipher.decrypt(zero, with: key) == plain)
        let iv = Data(repeating: 0xA5, count: 16)
        let other = try AES._CBC.encrypt(plain, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        #expect(BackupCipher.decrypt(other, with: key, iv: iv) == plain)
        // Bytes that no one encrypted decrypt to what swift-crypto's per-block CBC makes of them.
        let noise = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 40_503 >> 7) })
        let expected = try AES._CBC.decrypt(noise, using: key, iv: zeroIV, noPadding: true)
        #expect(BackupCipher.decrypt(noise, with: key) == expected)
        let halves = other.withUnsafeBytes { bytes in
            var data = DispatchData(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<(1 << 20 | 8)]))
            data.append(DispatchData(bytes: UnsafeRawBufferPointer(rebasing: bytes[(1 << 20 | 8)...])))
            return data
        }
        #expect(halves.regions.count == 2)
        #expect(BackupCipher.decrypt(halves, with: key, iv: iv) == plain)
    }

    /// What the cipher refuses, as nil: a key of another size, a length that is not whole
    /// blocks, an IV that is not one block; nothing is nothing.
    @Test func refusals() throws {
        let input = Data((0..<1040).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let iv = Data(repeating: 9, count: 16)
        for keyLength in [1, 15, 20, 31, 33, 64] {
            #expect(BackupCipher.decrypt(input, with: SymmetricKey(data: Data(repeating: 3, count: keyLength)), iv: iv) == nil, "\(keyLength)")
        }
        let key = SymmetricKey(data: Data(repeating: 3, count: 32))
        #expect(BackupCipher.decrypt(input.prefix(1039), with: key, iv: iv) == nil)
        #expect(BackupCipher.decrypt(input, with: key, iv: iv.prefix(15)) == nil)
        #expect(BackupCipher.decrypt(Data(), with: key, iv: iv) == Data())
        let expected = try AES._CBC.decrypt(input, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        #expect(BackupCipher.decrypt(input, with: key, iv: iv) == expected)
        #expect(BackupCipher.decrypt(input, with: SymmetricKey(data: Data(repeating: 3, count: 16)), iv: iv)?.count == 1040)
        #expect(BackupCipher.decrypt(input, with: SymmetricKey(data: Data(repeating: 3, count: 24)), iv: iv)?.count == 1040)
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
