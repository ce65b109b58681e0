import Foundation

/// Writes `bplist00` binary property lists the way CoreFoundation and Python's plistlib do.
///
/// Objects are numbered depth-first from the top (index 0): a container, then its elements (for a
/// dictionary all keys, then all values), each fully before the next. Equal scalars — strings,
/// integers, reals, booleans, dates, data, UIDs — are written once and shared, compared by type and
/// exact value (so `1`, `true` and `1.0` stay apart, and strings compare by their scalars, not by
/// Swift's canonical equivalence); containers are never shared. References and offsets take the
/// smallest of 1, 2, 4 and 8 bytes that fits. For values plistlib can hold the same way, the
/// output is byte for byte what `plistlib.dumps(value, fmt=FMT_BINARY, sort_keys=False)` gives.
///
/// Differences from plistlib, all in what is shared: it merges `0.0` and `-0.0` (Python finds
/// them equal) where we keep both; it shares UIDs and NaNs only when they are the same Python
/// object, where we share equal ones.
struct BinaryPropertyListWriter {
    func write(_ value: PropertyListValue) throws -> Data {
        var table = BinaryPropertyListObjectTable()
        _ = table.add(value)
        // Only needed while adding; freeing it before the output is allocated lowers the peak.
        table.scalarIndex = [:]
        return try table.encoded()
    }
}

/// The flattened objects of one value, in the order they are written.
private struct BinaryPropertyListObjectTable {
    enum Object {
        case scalar(PropertyListValue)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What makes two scalars the same object.
    enum ScalarKey: Hashable {
        case string(ExactString)
        case integer(PropertyListInteger)
        case real(bits: UInt64, single: Bool)
        case boolean(Bool)
        case date(bits: UInt64)
        case data(Data)
        case uid(UInt64)
    }

    /// A string compared by its Unicode scalars, not by canonical equivalence: "é" and "e\u{301}"
    /// are different objects, or the second would be written with the bytes of the first.
    struct ExactString: Hashable {
        var value: String
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.value.utf8.elementsEqual(rhs.value.utf8) }
        func hash(into hasher: inout Hasher) {
            var value = value
            value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    var objects: [Object] = []
    var scalarIndex: [ScalarKey: Int] = [:]
    /// Bytes of the scalars and container headers, and the number of references, so the output
    /// can be allocated once at its exact size (growing it by doubling would need up to twice
    /// the file in memory at the end).
    var scalarAndHeaderBytes = 0
    var referenceCount = 0

    /// Adds a value and what it contains; returns its object index.
    mutating func add(_ value: PropertyListValue) -> Int {
        let key: ScalarKey
        switch value {
        case .string(let string): key = .string(ExactString(value: string))
        case .integer(let integer): key = .integer(integer)
        case .real(let real): key = .real(bits: real.value.bitPattern, single: real.isSinglePrecision)
        case .boolean(let boolean): key = .boolean(boolean)
        case .date(let date): key = .date(bits: date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): key = .data(data)
        case .uid(let uid): key = .uid(uid)
        case .array(let elements), .set(let elements):
            let index = reserve()
            scalarAndHeaderBytes += BinaryPropertyListOutput.headerSize(count: elements.count)
            referenceCount += elements.count
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(add(element)) }
            if case .array = value { objects[index] = .array(references) } else { objects[index] = .set(references) }
            return index
        case .dictionary(let dictionary):
            let index = reserve()
            scalarAndHeaderBytes += BinaryPropertyListOutput.headerSize(count: dictionary.count)
            referenceCount += 2 * dictionary.count
            var keys: [Int] = []
            keys.reserveCapacity(dictionary.count)
            for (key, _) in dictionary { keys.append(add(.string(key))) }
            var values: [Int] = []
            values.reserveCapacity(dictionary.count)
            for (_, value) in dictionary { values.append(add(value)) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        }
        if let index = scalarIndex[key] { return index }
        let index = objects.count
        objects.append(.scalar(value))
        scalarIndex[key] = index
        scalarAndHeaderBytes += BinaryPropertyListOutput.scalarSize(value)
        return index
    }

    /// A slot for a container, filled once its contents have indices.
    mutating func reserve() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    /// The file, written straight into the buffer the returned `Data` keeps (no copy at the end),
    /// each object's offset straight into the offset table, whose position is known beforehand.
    func encoded() throws -> Data {
        let referenceSize = BinaryPropertyListTrailer.byteCount(toHold: objects.count)
        let objectsEnd = BinaryPropertyListTrailer.headerSize + scalarAndHeaderBytes + referenceCount * referenceSize
        let offsetSize = BinaryPropertyListTrailer.byteCount(toHold: objectsEnd)
        let expectedSize = objectsEnd + objects.count * offsetSize + BinaryPropertyListTrailer.size
        var output = try BinaryPropertyListOutput(capacity: expectedSize)
        output.append(contentsOf: BinaryPropertyListTrailer.magic)
        var tableEntry = objectsEnd
        for object in objects {
            output.store(UInt64(output.count), size: offsetSize, at: tableEntry, below: objectsEnd)
            tableEntry += offsetSize
            switch object {
            case .scalar(let value): output.appendScalar(value)
            case .array(let references):
                output.appendHeader(0xA0, count: references.count)
                for reference in references { output.appendInteger(UInt64(reference), size: referenceSize) }
            case .set(let references):
                output.appendHeader(0xC0, count: references.count)
                for reference in references { output.appendInteger(UInt64(reference), size: referenceSize) }
            case .dictionary(let keys, let values):
                output.appendHeader(0xD0, count: keys.count)
                for reference in keys { output.appendInteger(UInt64(reference), size: referenceSize) }
                for reference in values { output.appendInteger(UInt64(reference), size: referenceSize) }
            }
        }
        // The offsets were stored where the objects were computed to end; anything else would
        // make a file that points into the wrong bytes, so it is refused (a bug, never expected).
        guard output.count == objectsEnd, !output.overran else {
            throw PropertyListError(.invalidValue, "internal error: the binary writer computed \(objectsEnd) bytes of objects but wrote \(output.count)")
        }
        output.skip(objects.count * offsetSize)
        let trailer = BinaryPropertyListTrailer(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objects.count, topObject: 0,
            offsetTableOffset: objectsEnd)
        output.append(contentsOf: trailer.encoded)
        assert(output.count == expectedSize, "size accounting is off: \(output.count) bytes written, \(expectedSize) expected")
        return output.finish()
    }
}

/// The byte encodings of single objects.
///
/// A malloc'd buffer of the size computed beforehand, rather than `[UInt8]`: `Data(bytesNoCopy:)`
/// takes it over without the copy `Data([UInt8])` makes, which needed the whole file twice at the
/// end. Should the computed size ever be too small it grows (realloc), so a mistake there costs
/// time, not memory safety.
private struct BinaryPropertyListOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Set when ``store(_:size:at:below:)`` found objects already written where it was to store.
    private(set) var overran = false

    init(capacity: Int) throws {
        let capacity = max(capacity, 16)
        guard let memory = malloc(capacity) else {
            throw PropertyListError(.tooLarge, "cannot allocate \(capacity) bytes for the binary property list")
        }
        self.base = memory.bindMemory(to: UInt8.self, capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        free(self.base)
    }

    /// Hands the bytes to a `Data` that frees them.
    consuming func finish() -> Data {
        let data = Data(bytesNoCopy: self.base, count: self.count, deallocator: .free)
        discard self
        return data
    }

    private mutating func reserve(_ extra: Int) {
        guard self.count + extra > self.capacity else { return }
        let wanted = max(self.capacity * 2, self.count + extra)
        // A failed realloc leaves the old buffer valid; only Array-like growth is left, which
        // traps on exhaustion just as Array would.
        guard let memory = realloc(self.base, wanted) else {
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: wanted)
            fresh.update(from: self.base, count: self.count)
            free(self.base)
            self.base = fresh
            self.capacity = wanted
            return
        }
        self.base = memory.bindMemory(to: UInt8.self, capacity: wanted)
        self.capacity = wanted
    }

    /// Writes a big-endian integer at `position`, beyond what was appended so far (the offset
    /// table, filled in while the objects are written before it). Refused when objects already
    /// reach `limit` or beyond, where the table was computed to start.
    mutating func store(_ value: UInt64, size: Int, at position: Int, below limit: Int) {
        guard self.count <= limit, position + size <= self.capacity else {
            self.overran = true
            return
        }
        var shift = 8 * (size - 1)
        var index = position
        while shift >= 0 {
            self.base[index] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            shift -= 8
            index += 1
        }
    }

    /// Moves past bytes written with ``store(_:size:at:below:)``.
    mutating func skip(_ count: Int) {
        self.reserve(count)
        self.count += count
    }

    mutating func append(_ byte: UInt8) {
        self.reserve(1)
        self.base[self.count] = byte
        self.count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        self.reserve(bytes.count)
        (self.base + self.count).update(from: source, count: bytes.count)
        self.count += bytes.count
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.append(contentsOf: $0) }
    }

    /// The length of ``appendHeader(_:count:)``'s output.
    static func headerSize(count: Int) -> Int {
        count < 15 ? 1 : 1 + unsignedSize(UInt64(count))
    }

    /// The length of ``appendUnsigned(_:)``'s output.
    static func unsignedSize(_ value: UInt64) -> Int {
        switch value {
        case ..<(1 << 8): 2
        case ..<(1 << 16): 3
        case ..<(1 << 32): 5
        default: 9
        }
    }

    /// The length of ``appendScalar(_:)``'s output.
    static func scalarSize(_ value: PropertyListValue) -> Int {
        switch value {
        case .boolean: return 1
        case .integer(let integer):
            if let signed = integer.int64Value { return signed < 0 ? 9 : unsignedSize(UInt64(signed)) }
            return 17
        case .real(let real): return real.isSinglePrecision ? 5 : 9
        case .date: return 9
        case .data(let data): return headerSize(count: data.count) + data.count
        case .string(let string):
            var string = string
            let utf8Count = string.withUTF8 { utf8 in utf8.allSatisfy { $0 < 0x80 } ? utf8.count : -1 }
            if utf8Count >= 0 { return headerSize(count: utf8Count) + utf8Count }
            let units = string.utf16.count
            return headerSize(count: units) + 2 * units
        case .uid(let uid):
            switch uid {
            case ..<(1 << 8): return 2
            case ..<(1 << 16): return 3
            case ..<(1 << 32): return 5
            default: return 9
            }
        case .array, .set, .dictionary: return 0
        }
    }

    mutating func appendInteger(_ value: UInt64, size: Int) {
        var shift = 8 * (size - 1)
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A marker with a count: in its low nibble below 15, else nibble 0xF and an integer object.
    mutating func appendHeader(_ marker: UInt8, count: Int) {
        if count < 15 {
            append(marker | UInt8(count))
        } else {
            append(marker | 0x0F)
            appendUnsigned(UInt64(count))
        }
    }

    /// A non-negative integer object in 1, 2, 4 or 8 bytes, the fewest that hold it.
    mutating func appendUnsigned(_ value: UInt64) {
        switch value {
        case ..<(1 << 8): append(0x10); appendInteger(value, size: 1)
        case ..<(1 << 16): append(0x11); appendInteger(value, size: 2)
        case ..<(1 << 32): append(0x12); appendInteger(value, size: 4)
        default: append(0x13); appendInteger(value, size: 8)
        }
    }

    mutating func appendScalar(_ value: PropertyListValue) {
        switch value {
        case .boolean(let boolean):
            append(boolean ? 0x09 : 0x08)
        case .integer(let integer):
            if let signed = integer.int64Value {
                if signed < 0 {
                    append(0x13)
                    appendInteger(UInt64(bitPattern: signed), size: 8)
                } else {
                    appendUnsigned(UInt64(signed))
                }
            } else if let unsigned = integer.uint64Value {
                // Above Int64.max: a 16-byte two's-complement number with zero high half.
                append(0x14)
                appendInteger(0, size: 8)
                appendInteger(unsigned, size: 8)
            }
        case .real(let real):
            if real.isSinglePrecision {
                append(0x22)
                appendInteger(UInt64(Float(real.value).bitPattern), size: 4)
            } else {
                append(0x23)
                appendInteger(real.value.bitPattern, size: 8)
            }
        case .date(let date):
            append(0x33)
            appendInteger(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data):
            appendHeader(0x40, count: data.count)
            data.withUnsafeBytes { append(contentsOf: $0.bindMemory(to: UInt8.self)) }
        case .string(let string):
            appendString(string)
        case .uid(let uid):
            switch uid {
            case ..<(1 << 8): append(0x80); appendInteger(uid, size: 1)
            case ..<(1 << 16): append(0x81); appendInteger(uid, size: 2)
            case ..<(1 << 32): append(0x83); appendInteger(uid, size: 4)
            default: append(0x87); appendInteger(uid, size: 8)
            }
        case .array, .set, .dictionary:
            // Containers are flattened by the object table, never written as scalars.
            break
        }
    }

    mutating func appendString(_ string: String) {
        var string = string
        let isASCII = string.withUTF8 { utf8 in utf8.allSatisfy { $0 < 0x80 } }
        if isASCII {
            string.withUTF8 { utf8 in
                appendHeader(0x50, count: utf8.count)
                append(contentsOf: utf8)
            }
        } else {
            let utf16 = string.utf16
            appendHeader(0x60, count: utf16.count)
            reserve(2 * utf16.count)
            for unit in utf16 {
                append(UInt8(unit >> 8))
                append(UInt8(truncatingIfNeeded: unit))
            }
        }
    }
}
