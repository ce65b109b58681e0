/// The object area of a `bplist00` file whose trailer has been checked, and every read of it that
/// can go out of bounds: object offsets, references, counts, and the extent of each kind of object.
///
/// Both binary readers stand on it: ``BinaryPropertyListReader``, which turns a ``Fault`` into a
/// ``PropertyListError`` (``propertyListError(_:object:)``), and
/// ``BinaryRequestArchiveReader``, which gives up on any fault and leaves the input to the first.
/// So each bound is checked here once, and a stricter rule is made in one place for both.
///
/// A fault carries numbers, never text: the fast reader discards it, and typed throws return it
/// without allocating. Reads named `…(at:)` that throw check their own bounds; ``bigEndian(at:size:)``
/// and ``reference(at:)`` read where an extent read here has already checked.
struct BinaryPropertyListBytes {
    let bytes: UnsafeRawBufferPointer
    let trailer: BinaryPropertyListTrailer
    /// Where objects end: the start of the offset table.
    let objectAreaEnd: Int

    init(_ bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer) {
        self.bytes = bytes
        self.trailer = trailer
        self.objectAreaEnd = trailer.offsetTableOffset
    }

    /// Why a read failed, and where.
    enum Fault: Error, Hashable {
        /// `needed` bytes from `offset` run past the object area.
        case truncated(Subject, needed: Int, at: Int)
        /// Object `index`'s entry of the offset table, at `entry`, holds `offset`, outside the object area.
        case objectOutsideArea(index: Int, entry: Int, offset: UInt64)
        /// The reference at `offset` names `object`, not below the object count.
        case referenceOutOfRange(object: UInt64, at: Int)
        /// The extended count after `marker` starts with `countMarker`, not the marker of a 1- to 8-byte integer.
        case invalidCountMarker(marker: UInt8, countMarker: UInt8, at: Int)
        /// The extended count `value` at `offset` does not fit an `Int`.
        case countOverflow(value: UInt64, at: Int)
        /// A UTF-16 string of `units` code units, or a container of `count` entries, whose byte
        /// length overflows; `at` is its marker.
        case lengthOverflow(Subject, at: Int)
        /// An integer marker of `2^exponent` bytes, more than 16; `at` is the marker.
        case integerSize(marker: UInt8, at: Int)
        /// A 16-byte integer outside `-2^63…2^64-1`.
        case integerOutOfRange(high: UInt64, low: UInt64, at: Int)
        /// A real marker of other than 4 or 8 bytes; `at` is the marker.
        case realSize(marker: UInt8, at: Int)
        /// A UID of more than 8 bytes whose byte at `at` makes it exceed `2^64 - 1`.
        case uidOverflow(size: Int, at: Int)
    }

    /// What a truncated read or an overflowing length was for.
    enum Subject: Hashable {
        /// The integer marker of an extended count.
        case countMarker
        /// An extended count of `size` bytes, with its marker.
        case count(size: Int)
        case integer(size: Int)
        case real(size: Int)
        case date
        case data(count: Int)
        case ascii(count: Int)
        case utf16(units: Int)
        case uid(size: Int)
        /// The references of an array or a set.
        case elements(count: Int)
        /// The key and value references of a dictionary.
        case entries(count: Int)
    }

    // MARK: Unchecked reads

    /// `size` (1…8) bytes at `offset` as a big-endian number; the caller has checked they exist.
    @inline(__always)
    func bigEndian(at offset: Int, size: Int) -> UInt64 {
        Self.bigEndian(bytes, at: offset, size: size)
    }

    /// `size` (1…8) bytes of `bytes` at `offset` as a big-endian number; the caller has checked they exist.
    @inline(__always)
    static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        switch size {
        case 1: return UInt64(bytes[offset])
        case 2: return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for index in offset ..< offset + size { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
    }

    /// The object a container's reference at `offset` names, checked to be one of the objects;
    /// the reference itself lies in an extent ``container(marker:at:)`` checked.
    @inline(__always)
    func reference(at offset: Int) throws(Fault) -> Int {
        let raw = bigEndian(at: offset, size: trailer.referenceSize)
        guard raw < UInt64(trailer.objectCount) else { throw .referenceOutOfRange(object: raw, at: offset) }
        return Int(raw)
    }

    // MARK: Checked reads

    /// Whether `count` bytes from `offset` lie in the object area.
    @inline(__always)
    func fits(_ count: Int, at offset: Int) -> Bool {
        count >= 0 && count <= objectAreaEnd - offset
    }

    /// Fails with ``Fault/truncated(_:needed:at:)`` unless `count` bytes from `offset` lie in the object area.
    @inline(__always)
    func require(_ count: Int, at offset: Int, for subject: @autoclosure () -> Subject) throws(Fault) {
        guard fits(count, at: offset) else { throw .truncated(subject(), needed: count, at: offset) }
    }

    /// Where object `index` (below the object count) starts, from the offset table, checked to lie
    /// in the object area (so its marker byte can be read).
    @inline(__always)
    func offset(ofObject index: Int) throws(Fault) -> Int {
        let entry = trailer.offsetTableOffset + index * trailer.offsetSize
        let raw = bigEndian(at: entry, size: trailer.offsetSize)
        guard raw >= UInt64(BinaryPropertyListTrailer.headerSize), raw < UInt64(objectAreaEnd) else {
            throw .objectOutsideArea(index: index, entry: entry, offset: raw)
        }
        return Int(raw)
    }

    /// The count of a data, string or container object whose marker is at `position - 1`: the
    /// marker's low nibble, or (nibble 0xF) the integer object of 1 to 8 bytes that follows.
    /// Advances `position` past it.
    @inline(__always)
    func count(marker: UInt8, at position: inout Int) throws(Fault) -> Int {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return nibble }
        return try extendedCount(marker: marker, at: &position)
    }

    private func extendedCount(marker: UInt8, at position: inout Int) throws(Fault) -> Int {
        try require(1, at: position, for: .countMarker)
        let countMarker = bytes[position]
        guard countMarker & 0xF0 == 0x10, countMarker & 0x0F <= 3 else {
            throw .invalidCountMarker(marker: marker, countMarker: countMarker, at: position)
        }
        let size = 1 << Int(countMarker & 0x0F)
        try require(1 + size, at: position, for: .count(size: size))
        let raw = bigEndian(at: position + 1, size: size)
        guard let count = Int(exactly: raw) else { throw .countOverflow(value: raw, at: position + 1) }
        position += 1 + size
        return count
    }

    /// The bytes of a data (`0x4_`), ASCII (`0x5_`) or UTF-16 (`0x6_`) object whose marker is at
    /// `position - 1`: where they start, and the count (bytes, or code units for UTF-16).
    func string(marker: UInt8, at position: Int) throws(Fault) -> (start: Int, count: Int) {
        var start = position
        let count = try count(marker: marker, at: &start)
        switch marker >> 4 {
        case 0x4:
            try require(count, at: start, for: .data(count: count))
        case 0x5:
            try require(count, at: start, for: .ascii(count: count))
        default:
            let (length, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw .lengthOverflow(.utf16(units: count), at: position - 1) }
            try require(length, at: start, for: .utf16(units: count))
        }
        return (start, count)
    }

    /// The references of an array or set (`0xA_`, `0xC_`: `count` references) or a dictionary
    /// (`0xD_`: `count` key references, then `count` value references) whose marker is at
    /// `position - 1`: where they start, checked to lie in the object area.
    @inline(__always)
    func container(marker: UInt8, at position: Int) throws(Fault) -> (references: Int, count: Int) {
        var start = position
        let count = try count(marker: marker, at: &start)
        let isDictionary = marker >> 4 == 0xD
        let subject = isDictionary ? Subject.entries(count: count) : .elements(count: count)
        let (references, overflow1) = count.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
        let (length, overflow2) = references.multipliedReportingOverflow(by: trailer.referenceSize)
        guard !overflow1, !overflow2 else { throw .lengthOverflow(subject, at: position - 1) }
        try require(length, at: start, for: subject)
        return (start, count)
    }

    /// An integer object (`0x1_`) whose marker is at `position - 1`. As CoreFoundation: 1-, 2- and
    /// 4-byte integers are unsigned, 8-byte ones signed, and 16-byte ones a 128-bit two's-complement
    /// number, accepted when it fits the value model (CoreFoundation ignores the high 8 bytes; we
    /// refuse rather than silently change a number).
    func integer(marker: UInt8, at position: Int) throws(Fault) -> PropertyListInteger {
        let exponent = Int(marker & 0x0F)
        guard exponent <= 4 else { throw .integerSize(marker: marker, at: position - 1) }
        let size = 1 << exponent
        try require(size, at: position, for: .integer(size: size))
        switch size {
        case 8:
            return PropertyListInteger(Int64(bitPattern: bigEndian(at: position, size: 8)))
        case 16:
            let high = bigEndian(at: position, size: 8)
            let low = bigEndian(at: position + 8, size: 8)
            if high == 0 { return PropertyListInteger(low) }
            if high == .max, Int64(bitPattern: low) < 0 { return PropertyListInteger(Int64(bitPattern: low)) }
            throw .integerOutOfRange(high: high, low: low, at: position)
        default:
            // Unsigned in format 00 (CoreFoundation writes negative numbers in 8 bytes).
            return PropertyListInteger(bigEndian(at: position, size: size))
        }
    }

    /// A real object (`0x22` or `0x23`) whose marker is at `position - 1`.
    func real(marker: UInt8, at position: Int) throws(Fault) -> PropertyListReal {
        switch marker {
        case 0x22:
            try require(4, at: position, for: .real(size: 4))
            return PropertyListReal(Float(bitPattern: UInt32(bigEndian(at: position, size: 4))))
        case 0x23:
            try require(8, at: position, for: .real(size: 8))
            return PropertyListReal(Double(bitPattern: bigEndian(at: position, size: 8)))
        default:
            throw .realSize(marker: marker, at: position - 1)
        }
    }

    /// The seconds since 2001 of a date object (`0x33`) whose marker is at `position - 1`.
    func date(at position: Int) throws(Fault) -> Double {
        try require(8, at: position, for: .date)
        return Double(bitPattern: bigEndian(at: position, size: 8))
    }

    /// A UID object (`0x8_`, 1 to 16 bytes) whose marker is at `position - 1`; more than 8 bytes
    /// only when the leading ones are zero.
    func uid(marker: UInt8, at position: Int) throws(Fault) -> UInt64 {
        let size = Int(marker & 0x0F) + 1
        try require(size, at: position, for: .uid(size: size))
        if size > 8 {
            for byte in position ..< position + size - 8 where bytes[byte] != 0 {
                throw .uidOverflow(size: size, at: byte)
            }
        }
        return bigEndian(at: position + max(0, size - 8), size: min(size, 8))
    }

    /// Whether the `count` bytes from `start` (an extent ``string(marker:at:)`` checked) are all
    /// ASCII, as an ASCII string object's must be.
    @inline(__always)
    func isASCII(start: Int, count: Int) -> Bool {
        // Eight bytes at a time: keys and class names are most of a keyed archive.
        var combined: UInt64 = 0
        var index = start
        let end = start + count
        while end - index >= 8 {
            combined |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < end {
            combined |= UInt64(bytes[index])
            index += 1
        }
        return combined & 0x8080_8080_8080_8080 == 0
    }

    // MARK: Budgets

    /// How many more of something (references read, values decoded) a reader may spend, so a small
    /// file cannot make it do work or take memory far beyond its size.
    struct Budget {
        private(set) var remaining: Int

        init(_ limit: Int) { remaining = limit }

        /// Takes `count` from what remains; `false`, taking nothing, when less remains.
        @inline(__always)
        mutating func spend(_ count: Int) -> Bool {
            guard count <= remaining else { return false }
            remaining -= count
            return true
        }
    }
}

extension BinaryPropertyListBytes {
    /// The error ``BinaryPropertyListReader`` reports for `fault`, met while reading object `object`.
    func propertyListError(_ fault: Fault, object: Int) -> PropertyListError {
        func error(_ code: PropertyListError.Code, _ reason: String, at offset: Int) -> PropertyListError {
            PropertyListError(code, reason, at: .byteOffset(offset, objectIndex: object))
        }
        switch fault {
        case .truncated(let subject, let needed, let offset):
            return error(.truncated, "\(phrase(subject)) needs \(needed) bytes at 0x\(String(offset, radix: 16)) but only \(max(0, objectAreaEnd - offset)) remain before the offset table", at: offset)
        case .objectOutsideArea(let index, let entry, let offset):
            return PropertyListError(.referenceOutOfRange, "object \(index) is at 0x\(String(offset, radix: 16)), outside the object area 0x8..<0x\(String(objectAreaEnd, radix: 16))", at: .byteOffset(entry, objectIndex: index))
        case .referenceOutOfRange(let target, let offset):
            return error(.referenceOutOfRange, "reference to object \(target), but there are only \(trailer.objectCount) objects", at: offset)
        case .invalidCountMarker(let marker, let countMarker, let offset):
            return error(.invalidValue, "the length after marker 0x\(String(marker, radix: 16)) must be an integer object of 1 to 8 bytes, found marker 0x\(String(countMarker, radix: 16))", at: offset)
        case .countOverflow(let value, let offset):
            return error(.integerOverflow, "length \(value) (0x\(String(value, radix: 16))) does not fit a count", at: offset)
        case .lengthOverflow(let subject, let offset):
            let reason = switch subject {
            case .utf16(let units): "a UTF-16 string of \(units) code units is too long"
            case .entries(let count): "a dictionary of \(count) entries is too large"
            case .elements(let count): "a container of \(count) elements is too large"
            default: "\(phrase(subject)) is too large"
            }
            return error(.integerOverflow, reason, at: offset)
        case .integerSize(let marker, let offset):
            return error(.invalidValue, "an integer of 2^\(marker & 0x0F) bytes (marker 0x\(Self.hex(marker))); the largest is 16", at: offset)
        case .integerOutOfRange(let high, let low, let offset):
            return error(.integerOverflow, "a 16-byte integer (0x\(String(high, radix: 16))\(String(low, radix: 16))) outside -2^63…2^64-1", at: offset)
        case .realSize(let marker, let offset):
            return error(.invalidValue, "a real of \(1 << Int(marker & 0x0F)) bytes (marker 0x\(Self.hex(marker))); only 4 and 8 exist", at: offset)
        case .uidOverflow(let size, let offset):
            return error(.integerOverflow, "a \(size)-byte UID above 2^64 - 1", at: offset)
        }
    }

    /// What a read was for, as messages name it.
    func phrase(_ subject: Subject) -> String {
        switch subject {
        case .countMarker: "the length of the object"
        case .count(let size): "a \(size)-byte length"
        case .integer(let size): "a \(size)-byte integer"
        case .real(let size): size == 8 ? "an 8-byte real" : "a \(size)-byte real"
        case .date: "a date"
        case .data(let count): "a data object of \(count) bytes"
        case .ascii(let count): "an ASCII string of \(count) bytes"
        case .utf16(let units): "a UTF-16 string of \(units) code units"
        case .uid(let size): "a \(size)-byte UID"
        case .elements(let count): "\(count) references of \(trailer.referenceSize) bytes"
        case .entries(let count): "\(count) key and \(count) value references of \(trailer.referenceSize) bytes"
        }
    }

    /// Hexadecimal digits padded to an even count (`0x0f`, not `0xf`), for markers, bytes and code units.
    static func hex(_ value: some BinaryInteger) -> String {
        let digits = String(value, radix: 16)
        return digits.count % 2 == 0 ? digits : "0" + digits
    }
}
