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
///
/// Memory is what a large file costs, so the objects are written straight into the output in
/// one walk, no table of them in between: a first walk bounds the object count (everything
/// unshared), which fixes the reference size the objects are written with; if sharing leaves
/// few enough objects for narrower references, the written objects are narrowed in place at the
/// end. Besides the output, the writer keeps 8 bytes per object (its offset) and the uniquing
/// index (8 bytes a slot).
struct BinaryPropertyListWriter {
    /// Writes the objects with references of at least this many bytes before narrowing them to
    /// what the object count needs: tests use it to exercise the narrowing on small values.
    var initialReferenceSize = 1

    /// A larger bound is not allocated up front (sharing can make the bound far larger than
    /// the file); the output grows past it instead.
    static let maximumInitialCapacity = 1 << 30

    func write(_ value: PropertyListValue) throws -> Data {
        var bound = BinaryPropertyListSizeBound()
        bound.add(value)
        let referenceSize = max(initialReferenceSize, BinaryPropertyListTrailer.byteCount(toHold: bound.objectCount))
        let upperBound = bound.fileSize(referenceSize: referenceSize)
        var output = try BinaryPropertyListOutput(capacity: min(upperBound, Self.maximumInitialCapacity))
        output.append(contentsOf: BinaryPropertyListTrailer.magic)
        var encoder = BinaryPropertyListEncoder(referenceSize: referenceSize)
        _ = try encoder.add(value, to: &output)
        let data = try encoder.finish(output)
        assert(data.count <= upperBound, "the size bound is off: \(data.count) bytes written, at most \(upperBound) expected")
        return data
    }
}

/// An upper bound of a value's binary property list: its objects and their bytes as if nothing
/// were shared. Allocating it once (its pages are touched only as far as the file goes) spares
/// the copies growing the output would make.
struct BinaryPropertyListSizeBound {
    /// Objects, dictionary keys included.
    private(set) var objectCount = 0
    /// Bytes of the scalars and the container headers (references not included).
    private(set) var objectBytes = 0

    mutating func add(_ value: PropertyListValue) {
        objectCount += 1
        switch value {
        case .array(let elements), .set(let elements):
            objectBytes += BinaryPropertyListOutput.headerSize(count: elements.count)
            for element in elements { add(element) }
        case .dictionary(let dictionary):
            objectBytes += BinaryPropertyListOutput.headerSize(count: dictionary.count)
            for (key, value) in dictionary {
                objectCount += 1
                objectBytes += BinaryPropertyListOutput.stringSize(key)
                add(value)
            }
        default:
            objectBytes += BinaryPropertyListOutput.scalarSize(value)
        }
    }

    /// The file's size when every object is written with references of `referenceSize` bytes.
    func fileSize(referenceSize: Int) -> Int {
        let objectsEnd = BinaryPropertyListTrailer.headerSize + objectBytes + max(0, objectCount - 1) * referenceSize
        return objectsEnd + objectCount * BinaryPropertyListTrailer.byteCount(toHold: objectsEnd) + BinaryPropertyListTrailer.size
    }
}

/// Numbers the objects of one value and writes them into the output in number order.
private struct BinaryPropertyListEncoder {
    /// The size of the references written while adding; ``finish(_:)`` narrows them if the
    /// object count allows.
    let referenceSize: Int
    /// Where each object starts, by number. Objects are written whole and in number order (a
    /// container's references are reserved with its header and filled in as its contents get
    /// numbers), so each ends where the next starts.
    var offsets: [Int] = []
    var index = BinaryPropertyListUniquingIndex()
    /// Single-precision reals whose 64-bit value a 32-bit float does not hold exactly, by those
    /// 64 bits. Sharing compares the exact value, but two such reals can encode to the same four
    /// bytes; they are kept apart from the index, which compares encodings.
    var inexactSingles: [UInt64: Int] = [:]

    init(referenceSize: Int) {
        self.referenceSize = referenceSize
    }

    /// Writes a value and what it contains (unless written already); returns its object number.
    mutating func add(_ value: PropertyListValue, to output: inout BinaryPropertyListOutput) throws -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let number = try newObject(at: output.count)
            if case .array = value { output.appendHeader(0xA0, count: elements.count) } else { output.appendHeader(0xC0, count: elements.count) }
            var reference = output.count
            output.skip(elements.count * referenceSize)
            for element in elements {
                let element = try add(element, to: &output)
                output.store(UInt64(element), size: referenceSize, at: reference)
                reference += referenceSize
            }
            return number
        case .dictionary(let dictionary):
            let number = try newObject(at: output.count)
            output.appendHeader(0xD0, count: dictionary.count)
            var reference = output.count
            output.skip(2 * dictionary.count * referenceSize)
            for (key, _) in dictionary {
                let start = output.count
                output.appendString(key)
                let key = try unique(from: start, in: &output)
                output.store(UInt64(key), size: referenceSize, at: reference)
                reference += referenceSize
            }
            for (_, value) in dictionary {
                let value = try add(value, to: &output)
                output.store(UInt64(value), size: referenceSize, at: reference)
                reference += referenceSize
            }
            return number
        case .real(let real) where real.isSinglePrecision && Double(Float(real.value)).bitPattern != real.value.bitPattern:
            if let number = inexactSingles[real.value.bitPattern] { return number }
            let number = try newObject(at: output.count)
            output.appendScalar(value)
            inexactSingles[real.value.bitPattern] = number
            return number
        default:
            let start = output.count
            output.appendScalar(value)
            return try unique(from: start, in: &output)
        }
    }

    /// The number of the scalar just written from `start`: an earlier object with the same
    /// encoding (and the new bytes are dropped), or a new object.
    mutating func unique(from start: Int, in output: inout BinaryPropertyListOutput) throws -> Int {
        let written = output.bytes(from: 0, count: output.count)
        let length = written.count - start
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: written[start...]))
        let hash = UInt32(truncatingIfNeeded: hasher.finalize())
        let lookup = offsets.withUnsafeBufferPointer { offsets in
            index.lookup(hash: hash) { candidate in
                // Encodings are self-delimiting (the marker and length come first), so equal
                // lengths and equal bytes mean the same type and the same exact value.
                let candidateStart = offsets[candidate]
                let candidateEnd = candidate + 1 < offsets.count ? offsets[candidate + 1] : start
                guard let base = written.baseAddress, candidateEnd - candidateStart == length else { return false }
                return memcmp(base + candidateStart, base + start, length) == 0
            }
        }
        switch lookup {
        case .found(let number):
            output.truncate(to: start)
            return number
        case .missing(let slot):
            let number = try newObject(at: start)
            index.insert(number, hash: hash, at: slot)
            return number
        }
    }

    mutating func newObject(at offset: Int) throws -> Int {
        guard offsets.count <= BinaryPropertyListUniquingIndex.maximumNumber else {
            throw PropertyListError(.tooManyObjects, "more than \(BinaryPropertyListUniquingIndex.maximumNumber + 1) objects to write")
        }
        offsets.append(offset)
        return offsets.count - 1
    }

    /// Narrows the references if the object count allows, then appends the offset table and the trailer.
    mutating func finish(_ output: consuming BinaryPropertyListOutput) throws -> Data {
        // Only needed while adding; freeing them before the offset table is appended lowers the peak.
        index = BinaryPropertyListUniquingIndex(capacity: 0)
        inexactSingles = [:]
        let finalReferenceSize = BinaryPropertyListTrailer.byteCount(toHold: offsets.count)
        if finalReferenceSize < referenceSize {
            narrowReferences(to: finalReferenceSize, in: &output)
        }
        let objectsEnd = output.count
        let offsetSize = BinaryPropertyListTrailer.byteCount(toHold: objectsEnd)
        for offset in offsets { output.appendInteger(UInt64(offset), size: offsetSize) }
        let trailer = BinaryPropertyListTrailer(
            offsetSize: offsetSize, referenceSize: finalReferenceSize, objectCount: offsets.count, topObject: 0,
            offsetTableOffset: objectsEnd)
        output.append(contentsOf: trailer.encoded)
        // Every store and load stayed inside the written bytes; anything else would make a file
        // that points into the wrong bytes, so it is refused (a bug, never expected).
        guard !output.overran else {
            throw PropertyListError(.invalidValue, "internal error: the binary writer addressed bytes outside what it had written")
        }
        return output.finish()
    }

    /// Rewrites the written objects with `newSize`-byte references, in place and in number
    /// order: each object moves only towards the start (every one before it shrank or stayed),
    /// and inside a container each reference is read before its narrower copy is stored, at or
    /// before where it was read.
    mutating func narrowReferences(to newSize: Int, in output: inout BinaryPropertyListOutput) {
        let end = output.count
        var written = offsets.first ?? end
        for number in offsets.indices {
            let start = offsets[number]
            let objectEnd = number + 1 < offsets.count ? offsets[number + 1] : end
            offsets[number] = written
            let marker = output.byte(at: start)
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else {
                output.move(from: start, to: written, count: objectEnd - start)
                written += objectEnd - start
                continue
            }
            // The header as ``BinaryPropertyListOutput/appendHeader(_:count:)`` wrote it.
            var headerLength = 1
            var count = Int(marker & 0x0F)
            if count == 0x0F {
                let size = 1 << Int(output.byte(at: start + 1) & 0x0F)
                count = Int(output.load(at: start + 2, size: size))
                headerLength = 2 + size
            }
            output.move(from: start, to: written, count: headerLength)
            written += headerLength
            var reference = start + headerLength
            for _ in 0 ..< (kind == 0xD ? 2 * count : count) {
                let target = output.load(at: reference, size: referenceSize)
                output.store(target, size: newSize, at: written)
                reference += referenceSize
                written += newSize
            }
        }
        output.truncate(to: written)
    }
}
