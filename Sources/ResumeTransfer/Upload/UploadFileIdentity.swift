import Foundation

/// What makes a file the one an upload started with, kept beside the upload's blob (which has no
/// such field: Apple leaves "the file must be unchanged" to the caller). A continued upload
/// sends the file's bytes from the server's offset, so a file that changed would end as a mix of
/// two files on the server: any difference here refuses to continue.
///
/// Size, modification time and inode catch an edit or a replaced file; the SHA-256 of the first
/// and last MiB catch an edit that kept the time (`touch -r`, a copy with `cp -p`).
struct UploadFileIdentity: Codable, Sendable, Equatable {
    /// The format of this record; a record of another version is refused, not guessed.
    static let formatVersion = 1
    /// How many bytes at each end are hashed.
    static let hashedSpan = 1 << 20

    var format: Int
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var device: UInt64
    var inode: UInt64
    /// SHA-256 of the first MiB (the whole file when smaller), lowercase hex.
    var headSHA256: String
    /// SHA-256 of the last MiB (the whole file when smaller), lowercase hex.
    var tailSHA256: String
    /// The URL the upload was created at; a run for another URL does not take this checkpoint.
    var url: String
    /// The interop version the upload speaks.
    var draftVersion: Int

    /// What differs from `recorded`, in words; nil when nothing does.
    func difference(from recorded: UploadFileIdentity) -> String? {
        if size != recorded.size { return "its size is \(size) bytes, it was \(recorded.size)" }
        if modifiedSeconds != recorded.modifiedSeconds || modifiedNanoseconds != recorded.modifiedNanoseconds {
            return "its modification time is \(modifiedSeconds).\(Self.nanos(modifiedNanoseconds)), it was \(recorded.modifiedSeconds).\(Self.nanos(recorded.modifiedNanoseconds))"
        }
        if device != recorded.device || inode != recorded.inode {
            return "it is another file (inode \(inode), it was \(recorded.inode))"
        }
        if headSHA256 != recorded.headSHA256 { return "its first MiB differs (SHA-256 \(headSHA256), it was \(recorded.headSHA256))" }
        if tailSHA256 != recorded.tailSHA256 { return "its last MiB differs (SHA-256 \(tailSHA256), it was \(recorded.tailSHA256))" }
        return nil
    }

    private static func nanos(_ value: Int64) -> String {
        let text = String(max(0, value))
        return String(repeating: "0", count: max(0, 9 - text.count)) + text
    }

    /// The record as written: JSON, keys sorted, so that two records of one file are the same bytes.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Only integers and strings: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// A record read back.
    /// - Throws: ``UploadError/checkpoint(_:)`` for bytes that are not a record of this format.
    static func decoded(_ data: Data, path: String) throws(UploadError) -> UploadFileIdentity {
        guard data.count <= 64 * 1024, let identity = try? JSONDecoder().decode(UploadFileIdentity.self, from: data) else {
            throw .checkpoint("\(path) is not an upload identity record")
        }
        guard identity.format == formatVersion else {
            throw .checkpoint("\(path) is an identity record of format \(identity.format); this resumetool reads \(formatVersion)")
        }
        return identity
    }
}
