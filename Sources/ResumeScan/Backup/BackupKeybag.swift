import Crypto
import Foundation
import CryptoExtras

/// The `BackupKeyBag` of an encrypted backup's `Manifest.plist` (forensic-formats §2): the salts
/// and iteration counts that turn the backup password into a key, and the class keys wrapped with
/// it.
///
/// Every value comes from the evidence, so the iteration counts are bounded before any work: a
/// keybag asking for a billion rounds would hold the scan for hours.
struct BackupKeybag: Sendable {
    /// One protection class's key as the keybag stores it.
    struct ClassKey: Sendable, Hashable {
        var protectionClass: UInt32
        /// `WRAP`: 2 means wrapped with the password-derived key.
        var wrap: UInt32
        /// `WPKY`: the RFC 3394-wrapped key.
        var wrappedKey: Data
    }

    /// `SALT` and `ITER`: the PBKDF2-HMAC-SHA1 stage.
    var salt = Data()
    var iterations: Int = 0
    /// `DPSL` and `DPIC`: the PBKDF2-HMAC-SHA256 stage before it (iOS 10.2 and later); empty and 0 before.
    var doubleProtectionSalt = Data()
    var doubleProtectionIterations: Int = 0
    /// The class keys, in keybag order.
    var classKeys: [ClassKey] = []

    /// Readers bound what a backup controls as iphone_backup_decrypt does (forensic-formats §2):
    /// iOS itself writes 10,000,000 and 10,000.
    static let maximumDoubleProtectionIterations = 20_000_000
    static let maximumIterations = 1_000_000

    /// Reads the TLV records: a 4-byte tag, a 4-byte big-endian length, the value. Tags it does not
    /// know (`HMCK`, `DPWT`, `PBKY`, …) are skipped.
    /// - Throws: ``BackupError`` when a record runs past the end, a number is not 4 bytes, or a
    ///   count is out of bounds.
    init(_ bytes: Data) throws(BackupError) {
        let bytes = Array(bytes)
        var offset = 0
        var current: ClassKey?
        var sawClassUUID = false
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else { throw BackupError.keybag("a record header is cut short at byte \(offset)") }
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let length = Int(Self.bigEndian(bytes[offset + 4..<offset + 8]))
            offset += 8
            guard length <= bytes.count - offset else { throw BackupError.keybag("the value of \(Self.printable(tag)) runs past the end") }
            let value = bytes[offset..<offset + length]
            offset += length
            func number() throws(BackupError) -> UInt32 {
                guard value.count == 4 else { throw BackupError.keybag("\(Self.printable(tag)) is \(value.count) bytes, not 4") }
                return Self.bigEndian(value)
            }
            switch tag {
            case "UUID":
                // The first UUID is the keybag's own; each later one opens a class key.
                if sawClassUUID {
                    if let finished = current { classKeys.append(finished) }
                    current = ClassKey(protectionClass: 0, wrap: 0, wrappedKey: Data())
                } else {
                    sawClassUUID = true
                }
            case "CLAS": current?.protectionClass = try number()
            case "WRAP": if current != nil { current?.wrap = try number() }
            case "WPKY": current?.wrappedKey = Data(value)
            case "SALT" where current == nil: salt = Data(value)
            case "ITER" where current == nil: iterations = Int(try number())
            case "DPSL" where current == nil: doubleProtectionSalt = Data(value)
            case "DPIC" where current == nil: doubleProtectionIterations = Int(try number())
            default: continue
            }
        }
        if let finished = current { classKeys.append(finished) }
        guard iterations >= 1, !salt.isEmpty else { throw BackupError.keybag("it has no SALT or ITER") }
        guard iterations <= Self.maximumIterations else {
            throw BackupError.keybag("ITER is \(iterations), more than the \(Self.maximumIterations) this tool accepts")
        }
        guard doubleProtectionIterations <= Self.maximumDoubleProtectionIterations else {
            throw BackupError.keybag("DPIC is \(doubleProtectionIterations), more than the \(Self.maximumDoubleProtectionIterations) this tool accepts")
        }
        guard !classKeys.isEmpty else { throw BackupError.keybag("it holds no class key") }
    }

    /// The key that unwraps the class keys: PBKDF2-HMAC-SHA1 over PBKDF2-HMAC-SHA256 of the
    /// password (the SHA-256 stage only when the keybag has `DPSL`/`DPIC`).
    func passcodeKey(password: Data) throws(BackupError) -> SymmetricKey {
        do {
            var secret = password
            if doubleProtectionIterations > 0, !doubleProtectionSalt.isEmpty {
                let stage = try KDF.Insecure.PBKDF2.deriveKey(from: password, salt: doubleProtectionSalt, using: .sha256,
                                                              outputByteCount: 32, unsafeUncheckedRounds: doubleProtectionIterations)
                secret = stage.withUnsafeBytes { Data($0) }
            }
            return try KDF.Insecure.PBKDF2.deriveKey(from: secret, salt: salt, using: .insecureSHA1,
                                                     outputByteCount: 32, unsafeUncheckedRounds: iterations)
        } catch {
            throw BackupError.keybag("key derivation failed: \(error)")
        }
    }

    /// The class keys wrapped with the password (`WRAP & 2`), unwrapped, by protection class.
    /// - Throws: ``BackupError/wrongPassword`` when the unwrap's integrity check fails: that is
    ///   how a wrong password shows.
    func unlock(with passcodeKey: SymmetricKey) throws(BackupError) -> [UInt32: SymmetricKey] {
        var keys: [UInt32: SymmetricKey] = [:]
        for classKey in classKeys where classKey.wrap & 2 != 0 {
            guard let key = BackupCipher.unwrap(classKey.wrappedKey, with: passcodeKey) else { throw BackupError.wrongPassword }
            keys[classKey.protectionClass] = key
        }
        guard !keys.isEmpty else { throw BackupError.keybag("no class key is wrapped with the password") }
        return keys
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func printable(_ tag: String) -> String {
        tag.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F } ? tag : "a tag"
    }
}
