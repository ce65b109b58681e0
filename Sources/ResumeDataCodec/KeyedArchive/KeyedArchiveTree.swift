import Foundation

/// Any `NSKeyedArchiver` archive as a resolved object tree, for people to read: every UID
/// followed, each object with its class and its fields in archive order, dictionaries as key and
/// value pairs, arrays and sets as items.
///
/// Unlike ``KeyedArchive/decodeRoot()``, which refuses shared objects beyond a budget and cycles,
/// this shows what is there: an object is expanded where it is first met, and a later reference
/// to it is a ``Node/seen(uid:className:cycle:)`` marker, `cycle` when it is one of the objects
/// that contain it. So the tree has at most one expansion per object, and its size is bounded by
/// the archive's; its depth is bounded by ``KeyedArchiveOptions/maximumDepth``.
package struct KeyedArchiveTree: Sendable {
    /// The archive shown.
    package var archive: KeyedArchive
    /// The object `$top` points at.
    package var root: Node
    /// Whether the bytes were Network-framework resume data, whose first 8 bytes are XOR-ed with
    /// `TedLasso` (spec §6) and were XOR-ed back before reading.
    package var wasObscured = false

    /// One value of the tree.
    package indirect enum Node: Sendable, Hashable {
        /// UID 0, `$null`.
        case null
        /// A value stored in `$objects` (with its UID) or inline in an object (`uid` nil).
        case value(PropertyListValue, uid: UInt64?)
        /// An object expanded here.
        case object(Object)
        /// An object shown elsewhere: above (`cycle` false), or one that contains this reference.
        case seen(uid: UInt64, className: String, cycle: Bool)
        /// An inline array that holds UIDs.
        case array([Node])
    }

    /// An object expanded in the tree.
    package struct Object: Sendable, Hashable {
        /// Its index in `$objects`.
        package var uid: UInt64
        /// `$classname`.
        package var className: String
        /// `$classes`, most derived first.
        package var classChain: [String]
        /// The fields other than `$class` (and, for dictionaries and arrays, other than
        /// `NS.keys` / `NS.objects`, shown as ``entries`` and ``items``), in archive order.
        package var fields: [Field]
        /// For `NSDictionary` and its subclasses: key and value pairs.
        package var entries: [Entry]?
        /// For `NSArray`, `NSSet` and their subclasses: the elements.
        package var items: [Node]?
    }

    /// A field of an object.
    package struct Field: Sendable, Hashable {
        /// The key, e.g. `NS.relative`.
        package var key: String
        /// What it holds.
        package var node: Node
    }

    /// A key and value of a dictionary.
    package struct Entry: Sendable, Hashable {
        /// The key object (a string in every archive Apple writes).
        package var key: Node
        /// The value object.
        package var value: Node
    }

    /// Reads an archive (binary or XML, or Network-framework resume data, whose XOR is undone)
    /// and resolves it.
    /// - Throws: ``KeyedArchiveError`` naming the key path at fault.
    package init(data: Data, options: KeyedArchiveOptions = .default) throws {
        let obscured = NetworkResumeInfo.isObscured(data)
        try self.init(archive: KeyedArchive(data: obscured ? NetworkResumeInfo.xored(data) : data, options: options))
        self.wasObscured = obscured
    }

    /// Resolves an archive.
    /// - Throws: ``KeyedArchiveError``: a UID out of range, a malformed class, objects nested
    ///   deeper than the limit, each with the key path where it was found.
    init(archive: KeyedArchive) throws {
        self.archive = archive
        var walker = Walker(archive: archive)
        root = try walker.node(uid: archive.rootUID, keyPath: "$top.\(archive.topKey)")
    }

    private struct Walker {
        let archive: KeyedArchive
        var expanded = Set<UInt64>()
        var stack: [UInt64] = []

        mutating func node(uid: UInt64, keyPath: @autoclosure () -> String) throws -> Node {
            if uid == 0 { return .null }
            let object = try archive.resolve(uid, keyPath: keyPath())
            guard case .dictionary(let dictionary) = object else { return .value(object, uid: uid) }
            let objectClass = try archive.objectClass(of: dictionary, at: uid)
            if expanded.contains(uid) {
                return .seen(uid: uid, className: objectClass.name, cycle: stack.contains(uid))
            }
            guard stack.count < archive.options.effectiveMaximumDepth else {
                throw KeyedArchiveError(.tooDeep, "objects nested deeper than \(archive.options.effectiveMaximumDepth)", keyPath: keyPath())
            }
            expanded.insert(uid)
            stack.append(uid)
            defer { stack.removeLast() }

            let path = "$objects[\(uid)]"
            var result = Object(uid: uid, className: objectClass.name, classChain: objectClass.chain, fields: [])
            var shown: Set<String> = ["$class"]
            let chain = Set(objectClass.chain + [objectClass.name])
            if !chain.isDisjoint(with: ["NSDictionary", "NSMutableDictionary"]),
               let keys = Self.uids(dictionary["NS.keys"]), let values = Self.uids(dictionary["NS.objects"]), keys.count == values.count {
                var entries: [Entry] = []
                for index in keys.indices {
                    entries.append(Entry(key: try node(uid: keys[index], keyPath: "\(path).NS.keys[\(index)]"),
                                         value: try node(uid: values[index], keyPath: "\(path).NS.objects[\(index)]")))
                }
                result.entries = entries
                shown.formUnion(["NS.keys", "NS.objects"])
            } else if !chain.isDisjoint(with: ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]),
                      let elements = Self.uids(dictionary["NS.objects"]) {
                var items: [Node] = []
                for (index, element) in elements.enumerated() {
                    items.append(try node(uid: element, keyPath: "\(path).NS.objects[\(index)]"))
                }
                result.items = items
                shown.insert("NS.objects")
            }
            for (key, value) in dictionary where !shown.contains(key) {
                result.fields.append(Field(key: key, node: try field(value, keyPath: "\(path).\(key)")))
            }
            return .object(result)
        }

        mutating func field(_ value: PropertyListValue, keyPath: @autoclosure () -> String) throws -> Node {
            switch value {
            case .uid(let uid):
                return try node(uid: uid, keyPath: keyPath())
            case .array(let elements) where elements.contains(where: KeyedArchiveDecoder.containsUID):
                var nodes: [Node] = []
                for (index, element) in elements.enumerated() {
                    nodes.append(try field(element, keyPath: "\(keyPath())[\(index)]"))
                }
                return .array(nodes)
            default:
                return .value(value, uid: nil)
            }
        }

        static func uids(_ value: PropertyListValue?) -> [UInt64]? {
            guard case .array(let elements)? = value else { return nil }
            var uids: [UInt64] = []
            for element in elements {
                guard case .uid(let uid) = element else { return nil }
                uids.append(uid)
            }
            return uids
        }
    }
}
