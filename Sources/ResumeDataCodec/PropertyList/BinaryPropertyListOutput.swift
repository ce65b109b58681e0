import Foundation

/// The bytes of a binary property list being written, and the byte encodings of single objects.
///
/// A malloc'd buffer rather than `[UInt8]`: `Data(bytesNoCopy:)` takes it over without the copy
/// `Data([UInt8])` makes, which needed the whole file twice at the end. The writer allocates an
/// upper bound of the file's size once; pages it never writes are never touched, so they cost
/// address space, not memory. Should the bound ever be too small the buffer grows (realloc), so
/// a mistake there costs time, not memory safety.
struct BinaryPropertyListOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Set when ``store(_:size:at:)`` or ``load(at:size:)`` was asked for bytes outside what was
    /// written; the writer refuses the file then (a bug, never expected).
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

    /// Hands the bytes to a `Data` that frees them, returning what was reserved beyond them.
    consuming func finish() -> Data {
        if self.capacity - self.count > 4096, let memory = realloc(self.base, max(self.count, 1)) {
            self.base = memory.bindMemory(to: UInt8.self, capacity: self.count)
        }
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

    // MARK: Reading back and rewriting what was written

    /// The written bytes from `start` on, for hashing and comparing encodings.
    func bytes(from start: Int, count: Int) -> UnsafeRawBufferPointer {
        precondition(start >= 0 && count >= 0 && start + count <= self.count, "a range outside the written bytes")
        return UnsafeRawBufferPointer(start: self.base + start, count: count)
    }

    /// Whether the `count` bytes at `first` and at `second` are equal (both already written).
    func bytesEqual(_ first: Int, _ second: Int, count: Int) -> Bool {
        precondition(first >= 0 && second >= 0 && max(first, second) + count <= self.count, "a range outside the written bytes")
        return memcmp(self.base + first, self.base + second, count) == 0
    }

    /// The byte at `position` (already written).
    func byte(at position: Int) -> UInt8 {
        guard position >= 0, position < self.count else { return 0 }
        return self.base[position]
    }

    /// A big-endian integer of `size` bytes (1…8) at `position`, already written.
    mutating func load(at position: Int, size: Int) -> UInt64 {
        guard position >= 0, position + size <= self.count else {
            self.overran = true
            return 0
        }
        var value: UInt64 = 0
        for index in position ..< position + size { value = value << 8 | UInt64(self.base[index]) }
        return value
    }

    /// Writes a big-endian integer of `size` bytes (1…8) at `position`, inside what was written
    /// or skipped (references filled in once the objects they name have numbers).
    mutating func store(_ value: UInt64, size: Int, at position: Int) {
        guard position >= 0, position + size <= self.count else {
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

    /// Copies `count` written bytes from `source` to `destination` (the ranges may overlap).
    mutating func move(from source: Int, to destination: Int, count: Int) {
        guard source >= 0, destination >= 0, max(source, destination) + count <= self.count else {
            self.overran = true
            return
        }
        memmove(self.base + destination, self.base + source, count)
    }

    /// Forgets everything from `position` on (an object found to be written already; or, after
    /// narrowing the references, the bytes the objects no longer need).
    mutating func truncate(to position: Int) {
        guard position >= 0, position <= self.count else {
            self.overran = true
            return
        }
        self.count = position
    }

    /// Moves past `count` bytes, to be written with ``store(_:size:at:)``.
    mutating func skip(_ count: Int) {
        self.reserve(count)
        self.count += count
    }

    // MARK: Appending

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

    /// A big-endian integer of `size` bytes (1…8).
    mutating func appendInteger(_ value: UInt64, size: Int) {
        self.skip(size)
        self.store(value, size: size, at: self.count - size)
    }

    // MARK: Object encodings

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

    /// The length of ``appendScalar(_:)``'s output (0 for containers).
    static func scalarSize(_ value: PropertyListValue) -> Int {
        switch value {
        case .boolean, .null: return 1
        case .integer(let integer):
            if let signed = integer.int64Value { return signed < 0 ? 9 : unsignedSize(UInt64(signed)) }
            return 17
        case .real(let real): return real.isSinglePrecision ? 5 : 9
        case .date: return 9
        case .data(let data): return headerSize(count: data.count) + data.count
        case .string(let string): return stringSize(string)
        case .uid(let uid): return unsignedSize(uid)
        case .array, .set, .dictionary: return 0
        }
    }

    /// The length of ``appendString(_:)``'s output.
    static func stringSize(_ string: String) -> Int {
        var string = string
        let utf8Count = string.withUTF8 { utf8 in utf8.allSatisfy { $0 < 0x80 } ? utf8.count : -1 }
        if utf8Count >= 0 { return headerSize(count: utf8Count) + utf8Count }
        let units = string.utf16.count
        return headerSize(count: units) + 2 * units
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

    /// Any object but a container, which the writer lays out itself (header, then references).
    mutating func appendScalar(_ value: PropertyListValue) {
        switch value {
        case .boolean(let boolean):
            append(boolean ? 0x09 : 0x08)
        case .null:
            append(0x00)
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
            break
        }
    }

    /// ASCII strings as their bytes, all others as big-endian UTF-16.
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
