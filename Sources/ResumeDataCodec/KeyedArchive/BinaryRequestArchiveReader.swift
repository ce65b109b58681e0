import Foundation

/// A second, faster way to decode a binary request archive: it reads the archive's `bplist00`
/// bytes in place and builds the request object's fields directly, without the property-list
/// tree, the `$objects` array and the hashed dictionary per object that
/// ``KeyedArchive/init(data:options:)`` builds first. Decoding a blob's two request archives was
/// the largest part of `inspect`'s time (issue 15).
///
/// It is a shortcut, never a second opinion: it handles the archives Apple writes and returns
/// `nil` for anything else, and then ``URLRequestArchive/init(archiveData:options:)`` decodes
/// with the full decoder, which gives the result or the error with its key path. So every error
/// comes from the full decoder, and a request this returns is the one the full decoder returns
/// (`FuzzRequestArchive` and `BinaryRequestArchiveReaderTests` compare the two).
///
/// For that, before building anything it checks every object of the property list (the full
/// reader decodes all those reachable from the top, used or not) at least as strictly as
/// ``BinaryPropertyListReader``: offsets, lengths, markers, ASCII, references, cycles, nesting,
/// keys given twice. It gives up on whatever the full decoders accept but it does not mirror:
/// containers that refer to a container numbered before them (CoreFoundation, plistlib and
/// ``BinaryPropertyListWriter`` number objects depth-first and never share containers, so
/// references only go forward, which rules out cycles), more than ``maximumObjectCount``
/// objects, UTF-16 strings, sets, 16-byte integers, UIDs of more than 8 bytes, dictionary or
/// array fields, `NSDate` and `NS.bytes` strings, anything nested more than ``maximumDepth``
/// deep, dictionaries of more than ``maximumDictionaryCount`` keys, more than
/// ``maximumValueCount`` decoded values, inputs over ``maximumInputSize`` bytes. All these bounds
/// are below the full decoders' default limits.
struct BinaryRequestArchiveReader {
    /// Property lists of more objects go to the full decoder (a request archive has about 60).
    static let maximumObjectCount = 4096
    /// Larger inputs go to the full decoder; below it no container can hold more references
    /// than the reader's default budget, so that check cannot differ.
    static let maximumInputSize = 1 << 20
    /// Property-list containers, and archived objects, nested deeper than this go to the full decoder.
    static let maximumDepth = 32
    /// Keys given twice are looked for pair by pair: larger dictionaries go to the full decoder.
    static let maximumDictionaryCount = 256
    /// Values decoded for one request (shared objects count once per use, as in the full decoder).
    static let maximumValueCount = 10_000

    /// The request the full decoder would return, or `nil` when the full decoder must decide.
    static func request(from data: Data) -> URLRequestArchive? {
        guard data.count <= maximumInputSize, BinaryPropertyListReader.hasMagic(data) else { return nil }
        return data.withUnsafeBytes { bytes -> URLRequestArchive? in
            guard let trailer = try? BinaryPropertyListTrailer(parsing: bytes, maximumObjectCount: PropertyListReadOptions.default.maximumObjectCount) else {
                return nil
            }
            var reader = BinaryRequestArchiveReader(bytes: bytes, trailer: trailer)
            return reader.request()
        }
    }

    /// The object area, with every bounds-checked read (shared with ``BinaryPropertyListReader``).
    private let area: BinaryPropertyListBytes
    private var bytes: UnsafeRawBufferPointer { area.bytes }
    private var trailer: BinaryPropertyListTrailer { area.trailer }
    /// Each object's node, read once by ``validate()``: decoding looks the same keys and objects
    /// up again and again.
    private var nodes: [Node]

    // The keyed archive, once its frame is read.
    /// Where `$objects`' references start, and how many.
    private var objectsReferences = 0
    private var objectCount = 0
    /// Archived objects being decoded, outermost first (cycles and depth, as the full decoder).
    private var inProgress: [UInt64] = []
    private var valueBudget = BinaryPropertyListBytes.Budget(Self.maximumValueCount)
    /// Class descriptions already read, by UID: most archives name NSURL and a dictionary class
    /// more than once.
    private var classes: [(uid: UInt64, objectClass: ObjectClass)] = []

    private init(bytes: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer) {
        self.area = BinaryPropertyListBytes(bytes, trailer: trailer)
        self.nodes = []
    }

    // MARK: Reading in place

    /// A reference inside a container, checked to name an object.
    @inline(__always)
    private func reference(at offset: Int) -> Int? {
        try? area.reference(at: offset)
    }

    /// The node of an object (after ``validate()``, which read them all).
    @inline(__always)
    private func node(_ index: Int) -> Node? {
        nodes[index]
    }

    /// Reads an object's marker and extent; `nil` for what this reader leaves to the full one.
    /// Containers' references are checked to fit, not followed.
    private func readNode(_ index: Int) -> Node? {
        // Every read is checked by `area`, as the full reader checks it; here a fault only means
        // the full reader decides.
        do throws(BinaryPropertyListBytes.Fault) {
            let start = try area.offset(ofObject: index)
            let marker = bytes[start]
            let position = start + 1
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .boolean(false)
                case 0x09: return .boolean(true)
                default: return nil
                }
            case 0x1:
                // 16-byte integers are left to the full reader.
                guard marker & 0x0F <= 3 else { return nil }
                return .integer(try area.integer(marker: marker, at: position))
            case 0x2:
                return .real(try area.real(marker: marker, at: position))
            case 0x3:
                guard marker == 0x33 else { return nil }
                return .date(Date(timeIntervalSinceReferenceDate: try area.date(at: position)))
            case 0x4, 0x5:
                let (first, length) = try area.string(marker: marker, at: position)
                return marker >> 4 == 0x4 ? .data(start: first, count: length) : .ascii(start: first, count: length)
            case 0x8:
                // UIDs of more than 8 bytes are left to the full reader.
                guard marker & 0x0F < 8 else { return nil }
                return .uid(try area.uid(marker: marker, at: position))
            case 0xA, 0xD:
                let (first, elements) = try area.container(marker: marker, at: position)
                return marker >> 4 == 0xA ? .array(references: first, count: elements) : .dictionary(references: first, count: elements)
            default:
                // UTF-16 strings, sets, null, fill and unknown markers.
                return nil
            }
        } catch {
            return nil
        }
    }

    /// A hash of `count` bytes from `start`, eight at a time, for finding keys given twice.
    private func keyHash(start: Int, count: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(count)
        var index = start
        let end = start + count
        while end - index >= 8 {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
        while index < end {
            hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01B3
            index += 1
        }
        return hash
    }

    // MARK: Checking the whole property list

    /// Whether every object is readable here: everything the full reader would reject is
    /// rejected (and more). Two passes over the object table, no recursion: each object alone,
    /// keeping its node; then, from the last object back, each container's references, which
    /// must name objects (a container only one numbered after it), with every container's
    /// height known before its parent's.
    private mutating func validate() -> Bool {
        let count = trailer.objectCount
        guard count <= Self.maximumObjectCount else { return false }
        nodes.reserveCapacity(count)
        for index in 0 ..< count {
            guard let node = readNode(index) else { return false }
            if case .ascii(let start, let length) = node, !area.isASCII(start: start, count: length) { return false }
            nodes.append(node)
        }
        let size = trailer.referenceSize
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { heights in
            // A container's height: 1 plus its highest container element's (scalars count 0).
            func containerHeight(of child: Int, under parent: Int) -> UInt8? {
                switch nodes[child] {
                case .array, .dictionary: child > parent ? heights[child] : nil
                default: 0
                }
            }
            var index = count
            while index > 0 {
                index -= 1
                var height: UInt8 = 1
                switch nodes[index] {
                case .array(let references, let elements):
                    for element in 0 ..< elements {
                        guard let child = reference(at: references + element * size),
                              let childHeight = containerHeight(of: child, under: index) else { return false }
                        height = max(height, childHeight + 1)
                        guard height <= Self.maximumDepth else { return false }
                    }
                case .dictionary(let references, let entries):
                    guard entries <= Self.maximumDictionaryCount else { return false }
                    let valid = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(entries, 1)) { hashes in
                        for entry in 0 ..< entries {
                            // Keys must be ASCII strings, each once (compared by hash: two keys
                            // with one hash are treated as a repeat and left to the full reader).
                            guard let key = reference(at: references + entry * size),
                                  case .ascii(let start, let length) = nodes[key] else { return false }
                            let hash = keyHash(start: start, count: length)
                            for earlier in 0 ..< entry where hashes[earlier] == hash { return false }
                            hashes[entry] = hash
                            guard let value = reference(at: references + (entries + entry) * size),
                                  let childHeight = containerHeight(of: value, under: index) else { return false }
                            height = max(height, childHeight + 1)
                            guard height <= Self.maximumDepth else { return false }
                        }
                        return true
                    }
                    guard valid else { return false }
                default:
                    height = 0
                }
                heights[index] = height
            }
            return true
        }
    }

    // MARK: Strings

    /// Names that archives repeat and that are too long to be stored inline in a `String`: taken
    /// from here, they cost no allocation.
    private static let commonStrings: [String] = {
        var names = ["NSURLRequest", "NSMutableURLRequest", "NSMutableDictionary", "NSDictionary", "NSObject",
                     "NSURL", "NSMutableArray", "NSArray", "NSMutableString", "NSString", "NSData", "NSMutableData",
                     URLRequestArchive.securePropertiesKey, KeyedArchive.rootObjectKey, "startTimeoutTime",
                     "requiresShortConnectionTimeout", "payloadTransmissionTimeout", "allowedProtocolTypes"]
        names += (0 ..< 40).map { URLRequestArchive.itemKey($0, layout: .secure) }
        return names.filter { $0.utf8.count > 15 }
    }()

    /// `__nsurlrequest_proto_prop_obj_`, the spelling of every item key of the secure layout.
    private static let itemPrefix = Array(URLRequestArchive.secureItemPrefix.utf8)
    /// The item keys of the secure layout that ``string(start:count:)`` takes from a table.
    private static let itemKeys = (0 ..< 100).map { URLRequestArchive.itemKey($0, layout: .secure) }

    private func string(start: Int, count: Int) -> String {
        let text = UnsafeRawBufferPointer(rebasing: bytes[start ..< start + count])
        // An item key (most of the keys of a request) is found by its number, without comparing
        // it with every common name.
        let prefix = Self.itemPrefix.count
        if count > prefix, text.starts(with: Self.itemPrefix),
           let number = URLRequestArchive.itemNumber(text[prefix...], below: Self.itemKeys.count) {
            return Self.itemKeys[number]
        }
        if count > 15, let base = text.baseAddress {
            for common in Self.commonStrings where common.utf8.count == count {
                let same = common.utf8.withContiguousStorageIfAvailable { name in name.baseAddress.map { memcmp($0, base, count) == 0 } }
                if same == true { return common }
            }
        }
        return String(decoding: text.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    private func equals(_ start: Int, _ count: Int, _ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base + start, literal.utf8Start, count) == 0
    }

    /// The value reference of a key in a dictionary node, if the key is there.
    private func lookup(_ key: StaticString, references: Int, count: Int) -> Int? {
        let size = trailer.referenceSize
        for entry in 0 ..< count {
            guard let keyIndex = reference(at: references + entry * size),
                  case .ascii(let start, let length)? = node(keyIndex) else { return nil }
            if equals(start, length, key) { return reference(at: references + (count + entry) * size) }
        }
        return nil
    }

    // MARK: The keyed archive

    /// Reads the archive's frame as `KeyedArchive.init(_:options:)` checks it (with `$objects` at
    /// most `maximumObjectCount` long), after ``validate()``: the `$top` key and the root's UID.
    private mutating func frame(maximumObjectCount: Int) -> (topKeyStart: Int, topKeyLength: Int, rootUID: UInt64)? {
        guard validate(),
              case .dictionary(let top, let topCount)? = node(trailer.topObject),
              let archiver = lookup("$archiver", references: top, count: topCount),
              case .ascii(let archiverStart, let archiverLength)? = node(archiver),
              equals(archiverStart, archiverLength, "NSKeyedArchiver"),
              let version = lookup("$version", references: top, count: topCount),
              case .integer? = node(version),
              let topEntry = lookup("$top", references: top, count: topCount),
              case .dictionary(references: let topEntries, count: 1)? = node(topEntry),
              let topKeyIndex = reference(at: topEntries),
              case .ascii(let topKeyStart, let topKeyLength)? = node(topKeyIndex),
              let rootValue = reference(at: topEntries + trailer.referenceSize),
              case .uid(let rootUID)? = node(rootValue),
              let objects = lookup("$objects", references: top, count: topCount),
              case .array(let objectsReferences, let objectCount)? = node(objects),
              objectCount <= maximumObjectCount,
              objectCount > 0,
              let null = reference(at: objectsReferences),
              case .ascii(let nullStart, let nullLength)? = node(null),
              equals(nullStart, nullLength, "$null"),
              rootUID < UInt64(objectCount), rootUID != 0
        else { return nil }
        self.objectsReferences = objectsReferences
        self.objectCount = objectCount
        return (topKeyStart, topKeyLength, rootUID)
    }

    private mutating func request() -> URLRequestArchive? {
        // Sized once: a request names a handful of classes and nests a few objects deep, and
        // growing these arrays from empty was several allocations per request. (Not in `init`:
        // ``rootFields(named:maximumObjectCount:)`` uses neither.)
        classes.reserveCapacity(8)
        inProgress.reserveCapacity(8)
        guard let (topKeyStart, topKeyLength, rootUID) = frame(maximumObjectCount: KeyedArchiveOptions.default.maximumObjectCount),
              let root = rawRootObject(uid: rootUID) else { return nil }
        // The request's own checks are the full decoder's code; an error there is left to it,
        // which finds the same object and throws with its key path.
        return try? URLRequestArchive(object: root, topKey: string(start: topKeyStart, count: topKeyLength),
                                      keyPath: "$objects[\(rootUID)]")
    }

    // MARK: The root object's fields, raw

    /// Fields of the root object of a binary keyed archive, raw, as
    /// `KeyedArchive(data:options:)` and then `object(at: rootUID)` give them (see
    /// ``KeyedArchive/rootFields(of:named:maximumObjectCount:)``), or `nil` when the full reader
    /// must decide.
    static func rootFields(from data: Data, named keys: [StaticString], maximumObjectCount: Int) -> [KeyedArchiveField?]? {
        guard data.count <= maximumInputSize, BinaryPropertyListReader.hasMagic(data) else { return nil }
        return data.withUnsafeBytes { bytes -> [KeyedArchiveField?]? in
            guard let trailer = try? BinaryPropertyListTrailer(parsing: bytes, maximumObjectCount: PropertyListReadOptions.default.maximumObjectCount) else {
                return nil
            }
            var reader = BinaryRequestArchiveReader(bytes: bytes, trailer: trailer)
            return reader.rootFields(named: keys, maximumObjectCount: maximumObjectCount)
        }
    }

    private mutating func rootFields(named keys: [StaticString], maximumObjectCount: Int) -> [KeyedArchiveField?]? {
        guard let (_, _, rootUID) = frame(maximumObjectCount: maximumObjectCount),
              let root = resolve(rootUID), case .dictionary(let references, let count)? = node(root) else { return nil }
        var fields: [KeyedArchiveField?] = []
        fields.reserveCapacity(keys.count)
        for key in keys {
            guard let index = lookup(key, references: references, count: count) else {
                fields.append(nil)
                continue
            }
            guard let value = rawValue(index) else { return nil }
            var field = KeyedArchiveField(value: value)
            // As `object(at:)`: a UID out of range names nothing.
            if case .uid(let uid) = value, let target = resolve(uid) {
                guard let object = rawValue(target) else { return nil }
                field.target = object
            }
            fields.append(field)
        }
        return fields
    }

    /// An object as the full property-list reader gives it (a UID stays a UID), its containers
    /// converted too while ``valueBudget`` lasts: shared containers could otherwise expand
    /// exponentially, which the full reader, caching them, does not.
    private mutating func rawValue(_ index: Int) -> PropertyListValue? {
        guard valueBudget.spend(1), let node = node(index) else { return nil }
        switch node {
        case .uid(let uid): return .uid(uid)
        case .array(let references, let count):
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            for position in 0 ..< count {
                guard let element = reference(at: references + position * trailer.referenceSize),
                      let value = rawValue(element) else { return nil }
                elements.append(value)
            }
            return .array(elements)
        case .dictionary(let references, let count):
            var entries: [(String, PropertyListValue)] = []
            entries.reserveCapacity(count)
            for entry in 0 ..< count {
                guard let keyIndex = reference(at: references + entry * trailer.referenceSize),
                      case .ascii(let start, let length)? = self.node(keyIndex),
                      let valueIndex = reference(at: references + (count + entry) * trailer.referenceSize),
                      let value = rawValue(valueIndex) else { return nil }
                entries.append((string(start: start, count: length), value))
            }
            return PropertyListDictionary(entries: entries).map(PropertyListValue.dictionary)
        default:
            return plainScalar(node)
        }
    }

    /// The property-list object a UID names.
    private func resolve(_ uid: UInt64) -> Int? {
        guard uid < UInt64(objectCount) else { return nil }
        return reference(at: objectsReferences + Int(uid) * trailer.referenceSize)
    }

    private mutating func enter(_ uid: UInt64) -> Bool {
        guard !inProgress.contains(uid), inProgress.count < Self.maximumDepth else { return false }
        inProgress.append(uid)
        return true
    }

    /// As `KeyedArchiveDecoder.decodeRawObject(uid:)`.
    private mutating func rawRootObject(uid: UInt64) -> ArchivedObject? {
        guard let index = resolve(uid), case .dictionary(let references, let count)? = node(index),
              enter(uid), let objectClass = objectClass(references: references, count: count, uid: uid)
        else { return nil }
        defer { inProgress.removeLast() }
        return rawObject(references: references, count: count, objectClass: objectClass)
    }

    /// As `KeyedArchive.objectClass(of:at:)`: `$classname` and `$classes` of what `$class` names.
    private mutating func objectClass(references: Int, count: Int, uid: UInt64) -> ObjectClass? {
        guard let classValue = lookup("$class", references: references, count: count),
              case .uid(let classUID)? = node(classValue), classUID != uid else { return nil }
        if let known = classes.first(where: { $0.uid == classUID }) { return known.objectClass }
        guard let description = resolve(classUID),
              case .dictionary(let descriptionReferences, let descriptionCount)? = node(description),
              let nameIndex = lookup("$classname", references: descriptionReferences, count: descriptionCount),
              case .ascii(let nameStart, let nameLength)? = node(nameIndex)
        else { return nil }
        let name = string(start: nameStart, count: nameLength)
        var chain: [String] = []
        if let classesIndex = lookup("$classes", references: descriptionReferences, count: descriptionCount) {
            guard case .array(let names, let namesCount)? = node(classesIndex) else { return nil }
            chain.reserveCapacity(namesCount)
            for position in 0 ..< namesCount {
                guard let nameReference = reference(at: names + position * trailer.referenceSize),
                      case .ascii(let start, let length)? = node(nameReference) else { return nil }
                let superclass = string(start: start, count: length)
                // ASCII strings are equal exactly when their bytes are.
                guard !chain.contains(superclass) else { return nil }
                chain.append(superclass)
            }
        } else {
            chain = [name]
        }
        let objectClass = ObjectClass(name: name, chain: chain)
        classes.append((classUID, objectClass))
        return objectClass
    }

    /// As `KeyedArchiveDecoder.rawObject`: every field but `$class`, in order.
    private mutating func rawObject(references: Int, count: Int, objectClass: ObjectClass) -> ArchivedObject? {
        let size = trailer.referenceSize
        var fields: [ArchivedObject.Field] = []
        fields.reserveCapacity(count)
        for entry in 0 ..< count {
            guard let keyIndex = reference(at: references + entry * size),
                  case .ascii(let start, let length)? = node(keyIndex) else { return nil }
            if equals(start, length, "$class") { continue }
            guard let valueIndex = reference(at: references + (count + entry) * size),
                  let value = fieldValue(valueIndex) else { return nil }
            fields.append(.init(key: string(start: start, count: length), value: value))
        }
        return ArchivedObject(className: objectClass.name, classChain: objectClass.chain, fields: fields)
    }

    /// As `KeyedArchiveDecoder.fieldValue`, for fields that are a UID or a scalar.
    private mutating func fieldValue(_ index: Int) -> ArchivedObject.FieldValue? {
        guard let node = node(index) else { return nil }
        if case .uid(let uid) = node { return decode(uid: uid).map(ArchivedObject.FieldValue.reference) }
        return plainScalar(node).map(ArchivedObject.FieldValue.inline)
    }

    private func plainScalar(_ node: Node) -> PropertyListValue? {
        switch node {
        case .boolean(let value): .boolean(value)
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .date(let value): .date(value)
        case .data(let start, let count): .data(Data(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + count])))
        case .ascii(let start, let count): .string(string(start: start, count: count))
        case .uid, .array, .dictionary: nil
        }
    }

    /// As `KeyedArchiveDecoder.decode(uid:keyPath:)`.
    private mutating func decode(uid: UInt64) -> ArchivedValue? {
        guard valueBudget.spend(1) else { return nil }
        if uid == 0 { return .null }
        guard let index = resolve(uid), let node = node(index) else { return nil }
        switch node {
        case .boolean(let value): return .boolean(value)
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .date(let value): return .date(value)
        case .data(let start, let count): return .data(Data(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + count])))
        case .ascii(let start, let count): return .string(string(start: start, count: count))
        case .uid, .array: return nil
        case .dictionary(let references, let count):
            guard enter(uid) else { return nil }
            defer { inProgress.removeLast() }
            return decodeObject(references: references, count: count, uid: uid)
        }
    }

    /// As `KeyedArchiveDecoder.decodeObject`, for the classes request archives use.
    private mutating func decodeObject(references: Int, count: Int, uid: UInt64) -> ArchivedValue? {
        guard let objectClass = objectClass(references: references, count: count, uid: uid) else { return nil }
        switch objectClass.kind {
        case .dictionary:
            guard let keys = uidArray("NS.keys", references: references, count: count),
                  let values = uidArray("NS.objects", references: references, count: count),
                  keys.count == values.count else { return nil }
            var entries: [ArchivedValue.DictionaryEntry] = []
            entries.reserveCapacity(keys.count)
            for position in 0 ..< keys.count {
                guard case .string(let name)? = decode(uid: uidElement(keys, position)),
                      let value = decode(uid: uidElement(values, position)) else { return nil }
                entries.append(.init(key: name, value: value))
            }
            return .dictionary(entries)
        case .array:
            guard let elements = uidArray("NS.objects", references: references, count: count) else { return nil }
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            for position in 0 ..< elements.count {
                guard let value = decode(uid: uidElement(elements, position)) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .string:
            // `NS.bytes` strings (UTF-8 checked by the full decoder) are left to it.
            guard let string = lookup("NS.string", references: references, count: count),
                  let text = stringField(string) else { return nil }
            return .string(text)
        case .data:
            let key = lookup("NS.data", references: references, count: count) ?? lookup("NS.bytes", references: references, count: count)
            guard let key, let node = node(key) else { return nil }
            switch node {
            case .data(let start, let count): return .data(Data(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + count])))
            case .uid(let dataUID):
                guard case .data(let data)? = decode(uid: dataUID) else { return nil }
                return .data(data)
            default: return nil
            }
        case .url:
            guard let relative = lookup("NS.relative", references: references, count: count),
                  let relativeString = stringField(relative) else { return nil }
            var baseString: String?
            if let base = lookup("NS.base", references: references, count: count) {
                guard case .uid(let baseUID)? = node(base) else { return nil }
                switch decode(uid: baseUID) {
                case .null?: baseString = nil
                case .url(let baseURL)?: baseString = baseURL.absoluteString
                default: return nil
                }
            }
            return .url(ArchivedURL(relativeString: relativeString, baseString: baseString))
        case .date:
            return nil
        default:
            return rawObject(references: references, count: count, objectClass: objectClass).map(ArchivedValue.object)
        }
    }

    /// The references of an array of UIDs under a key: where they start and how many; every
    /// element is checked to be a UID.
    private func uidArray(_ key: StaticString, references: Int, count: Int) -> (references: Int, count: Int)? {
        guard let index = lookup(key, references: references, count: count),
              case .array(let elements, let elementCount)? = node(index) else { return nil }
        for position in 0 ..< elementCount {
            guard let element = reference(at: elements + position * trailer.referenceSize),
                  case .uid? = node(element) else { return nil }
        }
        return (elements, elementCount)
    }

    /// Element `position` of an array ``uidArray(_:references:count:)`` checked.
    private func uidElement(_ array: (references: Int, count: Int), _ position: Int) -> UInt64 {
        guard let element = reference(at: array.references + position * trailer.referenceSize),
              case .uid(let uid)? = node(element) else { return 0 }
        return uid
    }

    /// As `KeyedArchiveDecoder.stringField`: a string inline or behind a UID.
    private mutating func stringField(_ index: Int) -> String? {
        switch node(index) {
        case .ascii(let start, let count)?: return string(start: start, count: count)
        case .uid(let uid)?:
            guard case .string(let text)? = decode(uid: uid) else { return nil }
            return text
        default: return nil
        }
    }
}
