internal import CArchiveShim

/// Whether a file is a zip or tar archive, told by its first bytes alone: what a folder scan
/// lists as an archive found (``ScanInventory/FoundArchive``), and what `--open-archives` reads
/// as a root archive is read. Content decides, never the name: a `.zip` that is not one is not
/// listed, and a zip named `.dat` is.
///
/// The bytes are the ones the scan reads of every file anyway (``ScanContentKind/prefixLength``):
/// no file is opened or read again to ask. A zip starts with a local header (`PK\3\4`), or the
/// end record of an empty zip (`PK\5\6`), or the spanning marker (`PK\7\8`); a tar has `ustar` at
/// offset 257 (POSIX and GNU; a pre-POSIX tar without it is not told). A gzip stream's start is
/// inflated (at most 512 bytes) to find the tar header in it, so a gzip-compressed log is not
/// taken for a tar; a bzip2 or xz stream is told by its signature alone (its first block cannot
/// be decompressed from the first kilobyte), and `--open-archives` says so when it holds no tar.
enum ArchiveSignature {
    /// The kind of archive the bytes start (`zip`, `tar`, `tar.gz`, `tar.bz2`, `tar.xz`), or nil.
    static func kind(prefix: some Collection<UInt8>) -> String? {
        if prefix.dropFirst(257).starts(with: ustar) { return "tar" }
        // Most files fail at their first byte, before anything is copied.
        guard let first = prefix.first, [0x50, 0x1F, 0x42, 0xFD].contains(first) else { return nil }
        let bytes = Array(prefix.prefix(ScanContentKind.prefixLength))
        if isZip(bytes) { return "zip" }
        if bytes.starts(with: [0x1F, 0x8B, 0x08]) { return isTar(gunzipStart(bytes)) ? "tar.gz" : nil }
        if bytes.count >= 10, bytes.starts(with: Array("BZh".utf8)), (0x31...0x39).contains(bytes[3]),
           bytes[4..<10].elementsEqual([0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) { return "tar.bz2" }
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "tar.xz" }
        return nil
    }

    private static func isZip(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B else { return false }
        return (bytes[2], bytes[3]) == (3, 4) || (bytes[2], bytes[3]) == (5, 6) || (bytes[2], bytes[3]) == (7, 8)
    }

    private static let ustar = Array("ustar".utf8)

    private static func isTar(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 262 && bytes[257..<262].elementsEqual(ustar)
    }

    /// The first 512 bytes a gzip stream starting with `bytes` inflates to, or fewer.
    private static func gunzipStart(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                carchive_gunzip_start(input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        return count > 0 ? Array(out.prefix(count)) : []
    }
}
