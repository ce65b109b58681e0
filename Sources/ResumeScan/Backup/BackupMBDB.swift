import Crypto
import Foundation

/// `Manifest.mbdb`, the file list of backups made before iOS 10 (forensic-formats §2): a
/// `mbdb\x05\x00` header, then one big-endian record per file or folder. Files are stored flat,
/// as `<backup>/<SHA-1 of "DOMAIN-relativePath">`.
enum BackupMBDB {
    /// One record: a regular file, its path and metadata.
    struct Record: Sendable, Hashable {
        var domain: String
        var relativePath: String
        var fileID: String
        var file: BackupFileRecord
    }

    /// At most this many records are read: a real mbdb holds a few hundred thousand.
    static let maximumRecords = 5_000_000

    /// The regular-file records; folders, links and others are skipped.
    /// - Throws: ``BackupError`` when the header is wrong or a record is cut short.
    static func records(_ data: Data) throws(BackupError) -> [Record] {
        var reader = Reader(bytes: [UInt8](data))
        guard reader.bytes.starts(with: Array("mbdb".utf8) + [5, 0]) else {
            throw BackupError.unreadable("Manifest.mbdb does not start with mbdb 5.0")
        }
        reader.offset = 6
        var records: [Record] = []
        while reader.offset < reader.bytes.count {
            guard records.count < maximumRecords else { break }
            let start = reader.offset
            guard let domain = reader.string(), let path = reader.string(), reader.string() != nil, reader.string() != nil,
                  reader.string() != nil, let mode = reader.integer(2), reader.integer(8) != nil,
                  reader.integer(4) != nil, reader.integer(4) != nil,
                  let modified = reader.integer(4), reader.integer(4) != nil, let changed = reader.integer(4),
                  let size = reader.integer(8), let protectionClass = reader.integer(1), let properties = reader.integer(1) else {
                throw BackupError.unreadable("Manifest.mbdb: the record at byte \(start) is cut short")
            }
            for _ in 0..<properties {
                guard reader.string() != nil, reader.string() != nil else {
                    throw BackupError.unreadable("Manifest.mbdb: the record at byte \(start) is cut short")
                }
            }
            // Regular files only (S_IFREG), with a size a Data can hold.
            guard mode & 0xF000 == 0x8000, let fileSize = Int64(exactly: size) else { continue }
            let fileID = hex(Insecure.SHA1.hash(data: Data("\(domain)-\(path)".utf8)))
            records.append(Record(domain: domain, relativePath: path, fileID: fileID,
                                  file: BackupFileRecord(size: fileSize, mode: UInt32(mode),
                                                         modified: Date(timeIntervalSince1970: Double(modified)),
                                                         changed: Date(timeIntervalSince1970: Double(changed)),
                                                         protectionClass: UInt32(protectionClass))))
        }
        return records
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        /// A big-endian unsigned integer of `count` bytes.
        mutating func integer(_ count: Int) -> UInt64? {
            guard bytes.count - offset >= count else { return nil }
            let value = bytes[offset..<offset + count].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            offset += count
            return value
        }

        /// A string: a u16 length (`0xFFFF`: empty), then that many bytes, read as UTF-8.
        mutating func string() -> String? {
            guard let length = integer(2) else { return nil }
            if length == 0xFFFF { return "" }
            guard bytes.count - offset >= Int(length) else { return nil }
            defer { offset += Int(length) }
            return String(decoding: bytes[offset..<offset + Int(length)], as: UTF8.self)
        }
    }
}

/// Lower-case hex, as a fileID spells its SHA-1.
private func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
