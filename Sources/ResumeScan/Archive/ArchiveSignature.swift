internal import CArchiveShim

/// Whether a file is a zip or tar archive, told by its first bytes alone: what a folder scan
/// lists as an archive found (``ScanInventory/FoundArchive``), and what `--open-archives` reads
/// as a root archive is read. Content decides, never the name: a `.zip` that is not one is not
/// listed, and a zip named `.dat` is.
///
/// The bytes are the ones the scan reads of every file anyway (``ScanContentKind/prefixLength``):
/// no file is opened or read again to ask. A zip starts with a local header (`PK\3\4`, whole, with
/// a compression method APPNOTE defines), or the end record of an empty zip (`PK\5\6`, its
/// counts and offsets zero), or the spanning marker (`PK\7\8`) and a local header; a tar has `ustar` at
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

    /// The four bytes alone told a zip from any file that starts `PK\3\4` by chance (one in ten
    /// noise files of the scan benchmark, each then listed and reported as an archive):
    /// `file(1)` does the same, but an examiner is handed a list of "archives" that libarchive
    /// then cannot read. The method field of a real zip is one of a few values; a random one
    /// is, about one time in 2,800.
    private static func isZip(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B else { return false }
        switch (bytes[2], bytes[3]) {
        case (3, 4): return isLocalHeader(bytes, at: 0)
        case (7, 8): return isLocalHeader(bytes, at: 4)
        // An empty zip is its end record alone: this disk, the central directory's disk, the
        // entry counts, the directory's size and offset are all zero (then a comment length).
        case (5, 6): return bytes.count >= 22 && bytes[4..<20].allSatisfy { $0 == 0 }
        default: return false
        }
    }

    /// Compression methods APPNOTE 6.3.10 (4.4.5) defines: stored, shrunk, reduced, imploded,
    /// deflated, deflate64, PKWARE DCL, bzip2, LZMA, IBM z/OS CMPSC, TERSE, LZ77, zstd, MP3,
    /// xz, JPEG, WavPack, PPMd, and 99 for WinZip's AES.
    private static let zipMethods: Set<UInt16> = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 14, 16, 18, 19, 20, 93, 94, 95, 96, 97, 98, 99]

    /// A whole local file header (30 bytes) at `offset`, with a method of ``zipMethods``.
    private static func isLocalHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard bytes.count >= offset + 30, bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 3, 4]) else { return false }
        return zipMethods.contains(UInt16(bytes[offset + 8]) | UInt16(bytes[offset + 9]) << 8)
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
