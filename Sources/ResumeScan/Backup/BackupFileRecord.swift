import Foundation
import ResumeDataCodec

/// What a backup knows of one file, from the `file` column of `Manifest.db`'s `Files` table: an
/// NSKeyedArchiver archive of an `MBFile` (forensic-formats §2), read with the codec's keyed
/// archive reader.
struct BackupFileRecord: Sendable, Hashable {
    /// `Size`: the file's size on the device (an encrypted file is padded beyond it).
    var size: Int64
    /// `Mode`, type bits included.
    var mode: UInt32?
    /// `LastModified`, `LastStatusChange`, `Birth`: Unix seconds.
    var modified: Date?
    var changed: Date?
    var created: Date?
    /// `ProtectionClass`.
    var protectionClass: UInt32?
    /// `EncryptionKey`'s `NS.data`: a 4-byte little-endian class and the wrapped key; nil for a
    /// file of a plain backup, and for an empty file.
    var encryptionKey: Data?

    /// An archive larger than this is refused (iphone_backup_decrypt bounds it the same way): an
    /// MBFile is a few hundred bytes.
    static let maximumArchiveSize = 100_000

    private static let options = KeyedArchiveOptions(maximumObjectCount: 1_000, maximumDepth: 8, maximumValueCount: 1_000)

    /// The root's fields a record is made of.
    private enum Field: Int, CaseIterable {
        case size, mode, modified, changed, created, protectionClass, encryptionKey

        var key: StaticString {
            switch self {
            case .size: "Size"
            case .mode: "Mode"
            case .modified: "LastModified"
            case .changed: "LastStatusChange"
            case .created: "Birth"
            case .protectionClass: "ProtectionClass"
            case .encryptionKey: "EncryptionKey"
            }
        }

        static let keys = allCases.map(\.key)
    }

    /// Decodes the archive.
    /// - Throws: a sentence for the scan's problem list when it is too large, not a keyed
    ///   archive, or has no integer `Size`.
    init(archive: Data) throws(BackupError) {
        guard archive.count <= Self.maximumArchiveSize else {
            throw BackupError.unreadable("its MBFile record is \(archive.count) bytes, more than \(Self.maximumArchiveSize)")
        }
        // The root object's fields are read raw, not decoded into a tree: an encrypted scan reads
        // one record per file. Read in place first (most of an encrypted scan's time beside the
        // key derivation went to building each archive); what that reader leaves, the full one
        // decides, and it gives every error.
        if let fields = KeyedArchive.rootFields(of: archive, named: Field.keys, maximumObjectCount: Self.options.maximumObjectCount) {
            try self.init(field: { fields[$0.rawValue]?.value }, target: { fields[$0.rawValue]?.target })
            return
        }
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
        try self.init(field: { object[$0.key.description] },
                      target: { object[$0.key.description]?.uidValue.flatMap { try? archiveValue.object(at: $0) } })
    }

    /// The record from the root's fields: `field` gives a field's raw value, `target` the object
    /// a field's UID names.
    private init(field: (Field) -> PropertyListValue?, target: (Field) -> PropertyListValue?) throws(BackupError) {
        func integer(_ key: Field) -> Int64? { field(key)?.int64Value }
        func date(_ key: Field) -> Date? {
            // 32-bit times in the archives iOS writes; anything a Date cannot print is dropped.
            // (A range test, not abs(): abs(Int64.min) traps.)
            guard let seconds = integer(key), seconds > -(1 << 40), seconds < 1 << 40 else { return nil }
            return Date(timeIntervalSince1970: Double(seconds))
        }
        guard let size = integer(.size), size >= 0 else { throw BackupError.unreadable("its MBFile record has no Size") }
        self.size = size
        mode = integer(.mode).flatMap { UInt32(exactly: $0) }
        modified = date(.modified)
        changed = date(.changed)
        created = date(.created)
        protectionClass = integer(.protectionClass).flatMap { UInt32(exactly: $0) }
        // EncryptionKey is a UID of an NSData object (`NS.data`, as BackupAgent2 writes it) or of
        // plain data (as NSKeyedArchiver stores data it does not wrap), or the data inline.
        switch field(.encryptionKey) {
        case .uid?:
            let object = target(.encryptionKey)
            encryptionKey = object?.dataValue ?? object?.dictionaryValue?["NS.data"]?.dataValue
        case .data(let key)?:
            encryptionKey = key
        default:
            encryptionKey = nil
        }
    }

    init(size: Int64, mode: UInt32? = nil, modified: Date? = nil, changed: Date? = nil, created: Date? = nil,
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
