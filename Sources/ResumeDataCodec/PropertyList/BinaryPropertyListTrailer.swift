/// The 32 bytes that end a `bplist00` file and say where everything else is.
///
/// Layout (all big-endian): 5 unused bytes, sort version, offset-table entry size, object-reference
/// size, object count (8 bytes), top object (8 bytes), offset-table offset (8 bytes).
struct BinaryPropertyListTrailer: Hashable, Sendable {
    /// The length of a trailer.
    static let size = 32
    /// The length of the `bplist00` header.
    static let headerSize = 8
    /// The leading trailer bytes that carry nothing (5 unused, then a sort version nobody reads).
    static let unusedSize = 6
    /// The header our writer puts at the start of every file.
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// What a reader checks: `bplist0` and any eighth byte. CoreFoundation and swift-foundation
    /// read any `bplist0?` header as this format (rdar://5877417, their test `issue5877417`), so
    /// a file Apple reads is not refused for its version digit.
    static let readablePrefix: [UInt8] = Array("bplist0".utf8)

    /// Whether `bytes` start with a header a reader accepts: `bplist0` and one more byte.
    static func hasReadableHeader(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: readablePrefix) && bytes.dropFirst(readablePrefix.count).first != nil
    }

    /// Bytes per entry of the offset table (1…8).
    var offsetSize: Int
    /// Bytes per object reference inside containers (1…8).
    var referenceSize: Int
    /// Entries in the offset table.
    var objectCount: Int
    /// The index of the root object.
    var topObject: Int
    /// Where the offset table starts; objects live in `headerSize..<offsetTableOffset`.
    var offsetTableOffset: Int

    init(offsetSize: Int, referenceSize: Int, objectCount: Int, topObject: Int, offsetTableOffset: Int) {
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = objectCount
        self.topObject = topObject
        self.offsetTableOffset = offsetTableOffset
    }

    /// Reads and checks the trailer of a whole file.
    ///
    /// Every fact is checked before anything relies on it, following CoreFoundation's
    /// `__CFBinaryPlistGetTopLevelInfo` (and swift-foundation's `BPlistScanner`, which ports it):
    /// sizes in 1…8, at least one object, the top object among them, the offset table after the
    /// header and the first object, its size computed without overflow, the file exactly header +
    /// objects + offset table + trailer, and reference and offset sizes wide enough for what they
    /// must address. Errors name the byte of the trailer field at fault.
    init(parsing bytes: UnsafeRawBufferPointer, maximumObjectCount: Int) throws(PropertyListError) {
        let length = bytes.count
        guard length >= Self.headerSize, Self.hasReadableHeader(bytes) else {
            throw PropertyListError(.unknownFormat, "not a binary property list: the file does not start with \"bplist0\"", at: .byteOffset(0, objectIndex: nil))
        }
        guard length >= Self.headerSize + 1 + Self.size else {
            throw PropertyListError(.truncated, "a binary property list needs at least \(Self.headerSize + 1 + Self.size) bytes (header, one object, trailer); this one has \(length)", at: .byteOffset(length, objectIndex: nil))
        }
        let start = length - Self.size
        func field(_ offset: Int, _ size: Int) -> UInt64 {
            BinaryPropertyListBytes.bigEndian(bytes, at: start + offset, size: size)
        }
        // Writers leave the first six trailer bytes zero; when they are not, the end of the
        // file is most likely missing, which says more to a person than the field that broke.
        let looksCut = (0 ..< Self.unusedSize).contains { bytes[start + $0] != 0 }
        func fail(_ fieldOffset: Int, _ reason: String, mayBeCut: Bool = true) -> PropertyListError {
            let hint = looksCut && mayBeCut ? " (the last 32 bytes are not a trailer: is the file truncated?)" : ""
            return PropertyListError(.invalidTrailer, reason + hint, at: .byteOffset(start + fieldOffset, objectIndex: nil))
        }

        let offsetSize = Int(field(6, 1))
        guard (1...8).contains(offsetSize) else { throw fail(6, "offset-table entry size is \(offsetSize); it must be 1 to 8") }
        let referenceSize = Int(field(7, 1))
        guard (1...8).contains(referenceSize) else { throw fail(7, "object-reference size is \(referenceSize); it must be 1 to 8") }

        let rawCount = field(8, 8)
        guard rawCount >= 1 else { throw fail(8, "object count is 0; a property list has at least one object") }
        guard let objectCount = Int(exactly: rawCount) else { throw fail(8, "object count \(rawCount) is too large") }
        let rawTop = field(16, 8)
        guard rawTop < rawCount else { throw fail(16, "top object \(rawTop) is not below the object count \(rawCount)") }
        let topObject = Int(rawTop)

        let rawTableOffset = field(24, 8)
        guard rawTableOffset >= UInt64(Self.headerSize + 1) else {
            throw fail(24, "offset table at \(rawTableOffset) would overlap the header; it must start at 9 or later")
        }
        guard rawTableOffset < UInt64(start) else {
            throw fail(24, "offset table at 0x\(String(rawTableOffset, radix: 16)) is not before the trailer at 0x\(String(start, radix: 16))")
        }
        let offsetTableOffset = Int(rawTableOffset)

        let (tableSize, sizeOverflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
        guard !sizeOverflow else { throw fail(8, "offset table of \(objectCount) entries of \(offsetSize) bytes overflows") }
        // CoreFoundation wants the table to end exactly where the trailer starts. libplist's own
        // recursion.bplist lets the table run into the trailer's 6 unused bytes (nobody reads them),
        // and libplist and plistlib read it, so that much overlap is accepted; nothing further.
        let (tableEnd, endOverflow) = offsetTableOffset.addingReportingOverflow(tableSize)
        guard !endOverflow, tableEnd <= start + Self.unusedSize else {
            throw fail(8, "offset table of \(objectCount) entries of \(offsetSize) bytes at 0x\(String(offsetTableOffset, radix: 16)) runs into the trailer at 0x\(String(start, radix: 16))", mayBeCut: false)
        }
        guard tableEnd >= start else {
            throw fail(24, "\(start - tableEnd) unexplained bytes between the offset table (ending at 0x\(String(tableEnd, radix: 16))) and the trailer")
        }
        guard referenceSize >= 8 || objectCount < 1 << (8 * referenceSize) else {
            throw fail(7, "object references of \(referenceSize) bytes cannot address \(objectCount) objects")
        }
        guard offsetSize >= 8 || offsetTableOffset < 1 << (8 * offsetSize) else {
            throw fail(6, "offsets of \(offsetSize) bytes cannot reach the offset table at 0x\(String(offsetTableOffset, radix: 16))")
        }
        guard objectCount <= maximumObjectCount else {
            throw PropertyListError(.tooManyObjects, "\(objectCount) objects, more than the limit of \(maximumObjectCount)", at: .byteOffset(start + 8, objectIndex: nil))
        }
        self.init(offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objectCount, topObject: topObject, offsetTableOffset: offsetTableOffset)
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds `value`, as CoreFoundation and plistlib
    /// choose reference and offset sizes (they never use 3, 5, 6 or 7).
    static func byteCount(toHold value: Int) -> Int {
        switch UInt64(value) {
        case ..<(1 << 8): 1
        case ..<(1 << 16): 2
        case ..<(1 << 32): 4
        default: 8
        }
    }

    /// The 32 trailer bytes.
    var encoded: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 6)
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(referenceSize))
        for field in [objectCount, topObject, offsetTableOffset] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(field) >> UInt64(shift))) }
        }
        return bytes
    }
}
