import Foundation
import OrderedCollections

/// Reads `bplist00` binary property lists.
///
/// Every object type of the format is understood. The null object (`0x00`) reads as
/// ``PropertyListValue/null``, as CoreFoundation reads it as `kCFNull`. Fill (`0x0F`) is padding,
/// not an object, and is rejected with `PropertyListError.Code.unrepresentable` when a container
/// or the trailer refers to it, as CoreFoundation and swift-foundation reject it. The `bplist15`+
/// extensions (URL, UUID, ordered set) are rejected as unknown object types.
///
/// Integers follow CoreFoundation: 1-, 2- and 4-byte integers are unsigned, 8-byte ones signed,
/// and 16-byte ones hold a 128-bit two's-complement number, accepted when it fits the value model
/// (high 8 bytes zero: `0…UInt64.max`; high 8 bytes all ones with the sign bit of the low 8 set:
/// a negative `Int64`). CoreFoundation ignores the high 8 bytes; we refuse rather than silently
/// change a number.
///
/// Hand-written rather than built on Foundation's `PropertyListSerialization`: that one returns an
/// untyped `Any` tree without key order and reports no position on failure, and no package on
/// hand reads binary plists into a typed, ordered model.
package struct BinaryPropertyListReader {
    /// Whether `bytes` start as a binary property list: `bplist0` and any eighth byte, as Apple's
    /// readers accept (see `BinaryPropertyListTrailer.readablePrefix`).
    package static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        BinaryPropertyListTrailer.hasReadableHeader(bytes)
    }

    var options: PropertyListReadOptions
    init(options: PropertyListReadOptions) { self.options = options }

    func read(_ data: Data) throws -> PropertyListValue {
        try readReportingWarnings(data).value
    }

    /// Reads, also returning what was accepted only because ``PropertyListReadOptions`` allow it
    /// (duplicate keys kept with their last value), each with its offset and key path.
    func readReportingWarnings(_ data: Data) throws -> (value: PropertyListValue, warnings: [PropertyListError]) {
        guard data.count <= options.maximumInputSize else {
            throw PropertyListError(.tooLarge, "input is \(data.count) bytes, more than the limit of \(options.maximumInputSize)", at: .byteOffset(0, objectIndex: nil))
        }
        return try data.withUnsafeBytes { bytes in
            let trailer = try BinaryPropertyListTrailer(parsing: bytes, maximumObjectCount: options.maximumObjectCount)
            var decoder = BinaryPropertyListDecoder(bytes: bytes, trailer: trailer, options: options)
            let value = try decoder.decodeTopObject()
            return (value, decoder.warnings)
        }
    }
}

/// The object decoder behind ``BinaryPropertyListReader``: one pass over a checked trailer.
///
/// Objects are decoded on demand from the top object and each is decoded once (later references
/// reuse the value), so shared objects cost nothing extra and a file cannot make decoding
/// exponential. Only objects that more than one reference names are kept for reuse: a first pass
/// over the containers counts references, so a file of unshared objects (the usual bulk of a
/// large plist) does not pay a cache slot per object on top of the values. Every read is bounds-checked against the object area (`8..<offsetTableOffset`);
/// a length is compared with what remains before anything is allocated for it.
private struct BinaryPropertyListDecoder {
    /// The object area, with every bounds-checked read (shared with ``BinaryRequestArchiveReader``).
    let area: BinaryPropertyListBytes
    var bytes: UnsafeRawBufferPointer { area.bytes }
    var trailer: BinaryPropertyListTrailer { area.trailer }
    let maximumDepth: Int
    let maximumObjectCount: Int
    let duplicateKeys: PropertyListReadOptions.DuplicateKeyPolicy
    /// Container references that may still be read. Each becomes a value slot in memory
    /// whatever object it names, so a file of one-byte references to one object could otherwise
    /// ask for many times its size in memory; counted against the object limit like XML counts elements.
    var referenceBudget: BinaryPropertyListBytes.Budget
    /// Per object: in the low bits how many container references name it, counted up to 2 (see
    /// ``countReferences``); in ``inProgressBit`` whether it is a container being decoded on the
    /// current path (meeting one again is a reference cycle). One byte per object, as memory
    /// per object is what a large file costs.
    var objectState: [UInt8]
    static let inProgressBit: UInt8 = 0x80
    /// The decoded values of objects named more than once.
    var shared: [Int: PropertyListValue] = [:]
    /// The keys of recent dictionaries, by a hash of their key references, so dictionaries whose
    /// key references are the same bytes (the same key objects in the same order, as in a large
    /// array of records) share one storage of their keys. A record's keys are otherwise its
    /// largest allocation after its values. Allocated with the second dictionary read, so a
    /// plist of one dictionary (a resume blob) does not pay for it.
    var keyLists: [SharedKeyList?] = []
    var hasReadADictionary = false
    static let keyListSlots = 16
    /// Duplicate keys kept under ``PropertyListReadOptions/DuplicateKeyPolicy/keepLast``. Their
    /// key paths are completed on the way back up (``prefixWarnings(from:with:)``), so reading
    /// tracks no path for the usual file that has none.
    var warnings: [PropertyListError] = []

    struct SharedKeyList {
        /// Where the key references of the dictionary that made this entry start.
        var referencesStart: Int
        var count: Int
        var keys: OrderedSet<String>
    }

    init(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer, options: PropertyListReadOptions) {
        self.area = BinaryPropertyListBytes(bytes, trailer: trailer)
        self.maximumDepth = options.effectiveMaximumDepth
        self.maximumObjectCount = options.maximumObjectCount
        self.duplicateKeys = options.duplicateKeys
        self.referenceBudget = .init(options.maximumObjectCount)
        self.objectState = Self.countReferences(area, budget: options.maximumObjectCount)
    }

    mutating func decodeTopObject() throws -> PropertyListValue {
        try decodeObject(trailer.topObject, depth: 0)
    }

    // MARK: Errors

    func error(_ code: PropertyListError.Code, _ reason: String, at offset: Int, object: Int) -> PropertyListError {
        PropertyListError(code, reason, at: .byteOffset(offset, objectIndex: object))
    }

    /// For each object, how many references in containers name it: 0, 1, or 2 for two or more.
    ///
    /// Every container in the offset table is looked at, reachable or not; what is malformed is
    /// skipped here and reported by decoding if it is reachable. References are read only while
    /// `budget` lasts (overlapping containers could otherwise make this pass quadratic); past it
    /// every object counts as shared, so decoding keeps every value as it would without the pass.
    static func countReferences(_ area: BinaryPropertyListBytes, budget: Int) -> [UInt8] {
        let objectCount = area.trailer.objectCount
        let referenceSize = area.trailer.referenceSize
        var counts = [UInt8](repeating: 0, count: objectCount)
        var remaining = BinaryPropertyListBytes.Budget(budget)
        for index in 0 ..< objectCount {
            guard let start = try? area.offset(ofObject: index) else { continue }
            let marker = area.bytes[start]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD,
                  let (position, count) = try? area.container(marker: marker, at: start + 1) else { continue }
            let references = kind == 0xD ? 2 * count : count
            guard remaining.spend(references) else {
                return [UInt8](repeating: 2, count: objectCount)
            }
            var offset = position
            for _ in 0 ..< references {
                let target = area.bigEndian(at: offset, size: referenceSize)
                if target < UInt64(objectCount), counts[Int(target)] < 2 { counts[Int(target)] += 1 }
                offset += referenceSize
            }
        }
        return counts
    }

    // MARK: Objects

    mutating func decodeObject(_ index: Int, depth: Int) throws -> PropertyListValue {
        let isShared = objectState[index] & ~Self.inProgressBit > 1
        if isShared, let value = shared[index] { return value }
        let value: PropertyListValue
        do {
            value = try decodeUnshared(index, depth: depth)
        } catch let fault as BinaryPropertyListBytes.Fault {
            throw area.propertyListError(fault, object: index)
        }
        if isShared { shared[index] = value }
        return value
    }

    /// Decodes an object; a ``BinaryPropertyListBytes/Fault`` it throws is in object `index`.
    mutating func decodeUnshared(_ index: Int, depth: Int) throws -> PropertyListValue {
        let start = try area.offset(ofObject: index)
        let marker = bytes[start]
        let position = start + 1
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            case 0x00: return .null
            case 0x0F: throw error(.unrepresentable, "a fill byte (marker 0x0f) is padding, not an object", at: start, object: index)
            default: throw error(.unknownObjectType, "unknown object marker 0x\(hex(marker))", at: start, object: index)
            }
        case 0x1:
            return .integer(try area.integer(marker: marker, at: position))
        case 0x2:
            return .real(try area.real(marker: marker, at: position))
        case 0x3:
            guard marker == 0x33 else { throw error(.unknownObjectType, "unknown object marker 0x\(hex(marker)); a date is 0x33", at: start, object: index) }
            return .date(Date(timeIntervalSinceReferenceDate: try area.date(at: position)))
        case 0x4:
            let (first, length) = try area.string(marker: marker, at: position)
            return .data(Data(UnsafeRawBufferPointer(rebasing: bytes[first ..< first + length])))
        case 0x5:
            let (first, length) = try area.string(marker: marker, at: position)
            return .string(try asciiString(at: first, count: length, object: index))
        case 0x6:
            let (first, units) = try area.string(marker: marker, at: position)
            return .string(try utf16String(at: first, units: units, object: index))
        case 0x8:
            return .uid(try area.uid(marker: marker, at: position))
        case 0xA, 0xC:
            let elements = try containerElements(marker: marker, position: position, index: index, depth: depth)
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            return .dictionary(try dictionary(marker: marker, position: position, index: index, depth: depth))
        default:
            throw error(.unknownObjectType, "unknown object marker 0x\(hex(marker))", at: start, object: index)
        }
    }

    func asciiString(at position: Int, count: Int, object: Int) throws -> String {
        let buffer = UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count])
        if !area.isASCII(start: position, count: count), let bad = buffer.firstIndex(where: { $0 >= 0x80 }) {
            throw error(.invalidString, "byte 0x\(hex(buffer[bad])) in an ASCII string", at: position + bad, object: object)
        }
        return String(decoding: buffer.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    func utf16String(at position: Int, units: Int, object: Int) throws -> String {
        try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: units) { buffer in
            var index = 0
            while index < units {
                let unit = UInt16(truncatingIfNeeded: area.bigEndian(at: position + 2 * index, size: 2))
                buffer[index] = unit
                index += 1
            }
            index = 0
            while index < units {
                let unit = buffer[index]
                if UTF16.isLeadSurrogate(unit) {
                    guard index + 1 < units, UTF16.isTrailSurrogate(buffer[index + 1]) else {
                        throw error(.invalidString, "lead surrogate 0x\(hex(unit)) without a trail surrogate in a UTF-16 string", at: position + 2 * index, object: object)
                    }
                    index += 2
                } else if UTF16.isTrailSurrogate(unit) {
                    throw error(.invalidString, "trail surrogate 0x\(hex(unit)) without a lead surrogate in a UTF-16 string", at: position + 2 * index, object: object)
                } else {
                    index += 1
                }
            }
            return String(decoding: UnsafeBufferPointer(buffer), as: UTF16.self)
        }
    }

    /// Decodes one referenced object of a container, rejecting cycles and deep nesting.
    @inline(__always)
    mutating func child(at referenceOffset: Int, of parent: Int, depth: Int) throws -> (index: Int, value: PropertyListValue) {
        let index: Int
        do throws(BinaryPropertyListBytes.Fault) {
            index = try area.reference(at: referenceOffset)
        } catch {
            throw area.propertyListError(error, object: parent)
        }
        if objectState[index] & Self.inProgressBit != 0 {
            throw error(.cycle, index == parent
                ? "object \(index) contains itself"
                : "object \(index) contains itself (reference cycle through object \(parent))", at: referenceOffset, object: parent)
        }
        return (index, try decodeObject(index, depth: depth))
    }

    mutating func enterContainer(_ index: Int, at start: Int, depth: Int, references: Int) throws {
        guard depth < maximumDepth else {
            throw error(.tooDeep, "containers nested deeper than the limit of \(maximumDepth)", at: start, object: index)
        }
        guard referenceBudget.spend(references) else {
            throw error(.tooManyObjects, "containers hold more than \(maximumObjectCount) references in all, the object limit", at: start, object: index)
        }
        objectState[index] |= Self.inProgressBit
    }

    mutating func containerElements(marker: UInt8, position start: Int, index: Int, depth: Int) throws -> [PropertyListValue] {
        let (position, count) = try area.container(marker: marker, at: start)
        let referenceSize = trailer.referenceSize
        try enterContainer(index, at: start - 1, depth: depth, references: count)
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        for element in 0 ..< count {
            let warningCount = warnings.count
            do {
                elements.append(try child(at: position + element * referenceSize, of: index, depth: depth + 1).value)
            } catch var error as PropertyListError {
                error.prependKeyPath("[\(element)]")
                throw error
            }
            if warnings.count != warningCount { prefixWarnings(from: warningCount, with: "[\(element)]") }
        }
        objectState[index] &= ~Self.inProgressBit
        return elements
    }

    mutating func dictionary(marker: UInt8, position start: Int, index: Int, depth: Int) throws -> PropertyListDictionary {
        let (position, count) = try area.container(marker: marker, at: start)
        let referenceSize = trailer.referenceSize
        // Checked by `container`: the key and the value references fit the object area.
        let half = count * referenceSize
        try enterContainer(index, at: start - 1, depth: depth, references: 2 * count)
        let slot = count == 0 ? 0 : keyListSlot(referencesStart: position, count: count)
        if count > 0, !keyLists.isEmpty, let keyList = keyLists[slot], keyList.count == count, let base = bytes.baseAddress,
           memcmp(base + keyList.referencesStart, base + position, half) == 0 {
            // The same key objects as a dictionary already read without error: the same keys,
            // unique, each a string, so only the values are left to read.
            var values = ContiguousArray<PropertyListValue>()
            values.reserveCapacity(count)
            for entry in 0 ..< count {
                let warningCount = warnings.count
                do {
                    values.append(try child(at: position + half + entry * referenceSize, of: index, depth: depth + 1).value)
                } catch var error as PropertyListError {
                    error.prependKeyPath(keyList.keys[entry])
                    throw error
                }
                if warnings.count != warningCount { prefixWarnings(from: warningCount, with: keyList.keys[entry]) }
            }
            objectState[index] &= ~Self.inProgressBit
            return PropertyListDictionary(uniqueKeys: keyList.keys, values: values)
        }
        var dictionary = PropertyListDictionary()
        dictionary.reserveCapacity(count)
        var hasDuplicateKeys = false
        for entry in 0 ..< count {
            let keyOffset = position + entry * referenceSize
            let (keyIndex, keyValue) = try child(at: keyOffset, of: index, depth: depth + 1)
            guard case .string(let key) = keyValue else {
                throw error(.invalidKey, "key \(entry) is \(article(keyValue.typeName)) (object \(keyIndex)), not a string", at: keyOffset, object: index)
            }
            let value: PropertyListValue
            let warningCount = warnings.count
            do {
                value = try child(at: keyOffset + half, of: index, depth: depth + 1).value
            } catch var error as PropertyListError {
                error.prependKeyPath(key)
                throw error
            }
            if warnings.count != warningCount { prefixWarnings(from: warningCount, with: key) }
            if dictionary.updateValue(value, forKey: key) != nil {
                guard duplicateKeys == .keepLast else {
                    throw error(.duplicateKey, "key \"\(key)\" appears twice", at: keyOffset, object: index)
                }
                var warning = error(.duplicateKey, "key \"\(key)\" appears twice; the last value is kept", at: keyOffset, object: index)
                warning.keyPath = key
                warnings.append(warning)
                hasDuplicateKeys = true
            }
        }
        objectState[index] &= ~Self.inProgressBit
        if count > 0, !hasDuplicateKeys {
            if keyLists.isEmpty, hasReadADictionary { keyLists = [SharedKeyList?](repeating: nil, count: Self.keyListSlots) }
            if !keyLists.isEmpty { keyLists[slot] = SharedKeyList(referencesStart: position, count: count, keys: dictionary.orderedKeys) }
            hasReadADictionary = true
        }
        return dictionary
    }

    /// Puts `component` in front of the key paths of the warnings found inside one child.
    mutating func prefixWarnings(from start: Int, with component: String) {
        for index in start ..< warnings.count { warnings[index].prependKeyPath(component) }
    }

    /// Where ``keyLists`` keeps the keys of a dictionary with these key references (a hash of
    /// their count and first and last reference; the entry is compared in full before use).
    func keyListSlot(referencesStart: Int, count: Int) -> Int {
        let size = trailer.referenceSize
        let first = area.bigEndian(at: referencesStart, size: size)
        let last = area.bigEndian(at: referencesStart + (count - 1) * size, size: size)
        let mixed = (UInt64(count) &* 0x9E37_79B9_7F4A_7C15) ^ (first &* 0xBF58_476D_1CE4_E5B9) ^ (last &* 0x94D0_49BB_1331_11EB)
        return Int(mixed >> 60) & (Self.keyListSlots - 1)
    }

    func hex(_ value: some BinaryInteger) -> String {
        BinaryPropertyListBytes.hex(value)
    }

    func article(_ noun: String) -> String {
        (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
    }
}

fileprivate extension PropertyListError {
    /// Puts a dictionary key or `[index]` in front of the key path, as an error travels out of
    /// the containers it was found in.
    mutating func prependKeyPath(_ component: String) {
        guard let rest = keyPath, !rest.isEmpty else {
            keyPath = component
            return
        }
        keyPath = rest.hasPrefix("[") ? component + rest : component + "." + rest
    }
}
