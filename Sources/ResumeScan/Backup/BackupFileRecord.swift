import Foundation
import ResumeDataCodec

/// What a backup knows of one file, from the `file` column of `Manifest.db`'s `Files` table: an
/// NSKeyedArchiver archive of an `MBFile` (forensic-formats §2), read with the codec's keyed
/// archive reader.
package struct BackupFileRecord: Sendable, Hashable {
    /// `Size`: the file's size on the device (an encrypted file is padded beyond it).
    package var size: Int64
    /// `Mode`, type bits included.
    package var mode: UInt32?
    /// `LastModified`, `LastStatusChange`, `Birth`: Unix seconds.
    package var modified: Date?
    package var changed: Date?
    package var created: Date?
    /// `ProtectionClass`.
    package var protectionClass: UInt32?
    /// `EncryptionKey`'s `NS.data`: a 4-byte little-endian class and the wrapped key; nil for a
    /// file of a plain backup, and for an empty file.
    package var encryptionKey: Data?

    /// An archive larger than this is refused (iphone_backup_decrypt bounds it the same way): an
    /// MBFile is a few hundred bytes.
    package static let maximumArchiveSize = 100_000

    private static let options = KeyedArchiveOptions(maximumObjectCount: 1_000, maximumDepth: 8, maximumValueCount: 1_000)

    /// Decodes the archive.
    /// - Throws: a sentence for the scan's problem list when it is too large, not a keyed
    ///   archive, or has no integer `Size`.
    package init(archive: Data) throws(BackupError) {
        guard archive.count <= Self.maximumArchiveSize else {
            throw BackupError.unreadable("its MBFile record is \(archive.count) bytes, more than \(Self.maximumArchiveSize)")
        }
        // The root object's fields are read raw (`KeyedArchive.object(at:)`), not decoded into a
        // tree: an encrypted scan reads one record per file, and the tree cost a third of it.
        let archiveValue: KeyedArchive
        let object: PropertyListDictionary
        do {
            archiveValue = try KeyedArchive(data: archive, options: Self.options)
            guard let root = try archiveValue.object(at: archiveValue.rootUID).dictionaryValue else {
                throw BackupError.unreadable("its MBFile record's root is no object")
            }
            object = root
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError.unreadable("its MBFile record is no keyed archive: \(error)")
        }
        func integer(_ key: String) -> Int64? { object[key]?.int64Value }
        func date(_ key: String) -> Date? {
            // 32-bit times in the archives iOS writes; anything a Date cannot print is dropped.
            // (A range test, not abs(): abs(Int64.min) traps.)
            guard let seconds = integer(key), seconds > -(1 << 40), seconds < 1 << 40 else { return nil }
            return Date(timeIntervalSince1970: Double(seconds))
        }
        guard let size = integer("Size"), size >= 0 else { throw BackupError.unreadable("its MBFile record has no Size") }
        self.size = size
        mode = integer("Mode").flatMap { UInt32(exactly: $0) }
        modified = date("LastModified")
        changed = date("LastStatusChange")
        created = date("Birth")
        protectionClass = integer("ProtectionClass").flatMap { UInt32(exactly: $0) }
        // EncryptionKey is a UID of an NSData object (`NS.data`, as BackupAgent2 writes it) or of
        // plain data (as NSKeyedArchiver stores data it does not wrap), or the data inline.
        switch object["EncryptionKey"] {
        case .uid(let uid)?:
            let target = try? archiveValue.object(at: uid)
            encryptionKey = target?.dataValue ?? target?.dictionaryValue?["NS.data"]?.dataValue
        case .data(let key)?:
            encryptionKey = key
        default:
            encryptionKey = nil
        }
    }

    package init(size: Int64, mode: UInt32? = nil, modified: Date? = nil, changed: Date? = nil, created: Date? = nil,
                 protectionClass: UInt32? = nil, encryptionKey: Data? = nil) {
        self.size = size
        self.mode = mode
        self.modified = modified
        self.changed = changed
        self.created = created
        self.protectionClass = protectionClass
        self.encryptionKey = encryptionKey
    }
}
