/// An archived object of a class this library does not interpret, kept whole: its class and
/// every field in archive order, with the objects it refers to decoded.
public struct ArchivedObject: Sendable, Hashable {
    /// True when the object is a `name` or a subclass of it: its class name is `name`, or its
    /// class chain holds `name` and starts with its own class name (as every archive Apple writes
    /// does). A class name that its own chain contradicts is refused, because the decoder
    /// interprets some names (NSDictionary, NSArray, ...) by their fields: such an object would
    /// be read as one thing here and written back as another.
    public func isKind(of name: String) -> Bool {
        className == name || (classChain.first == className && classChain.contains(name))
    }

    /// `$classname`.
    public var className: String
    /// `$classes`: the class and its superclasses, most derived first.
    public var classChain: [String]
    /// The fields other than `$class`, in archive order.
    public var fields: [Field]

    /// Creates an object.
    init(className: String, classChain: [String], fields: [Field]) {
        self.className = className
        self.classChain = classChain
        self.fields = fields
    }

    /// One key of an object (e.g. `NS.relative` or `$0`) and what it holds.
    public typealias Field = ArchivedEntry<FieldValue>

    /// What an object's key holds. NSKeyedArchiver stores scalars (`encodeInt:`, `encodeDouble:`,
    /// `encodeBool:`) in the object itself and objects as UIDs into `$objects`; the two must be
    /// told apart to write the archive back the same way.
    public enum FieldValue: Sendable, Hashable {
        /// A value stored in the object itself. Holds no UID.
        case inline(PropertyListValue)
        /// A UID, with the object it points at decoded (``ArchivedValue/null`` for UID 0).
        case reference(ArchivedValue)
        /// An array that holds UIDs, element by element.
        case array([FieldValue])

        /// The value as an ``ArchivedValue``: the decoded object for a reference, the plain value
        /// for an inline one (`nil` if it has no archived form), the elements for an array.
        public var value: ArchivedValue? {
            switch self {
            case .reference(let value): value
            case .inline(let plain): try? ArchivedValue(plain: plain)
            case .array(let elements):
                elements.reduce(into: [ArchivedValue]?.some([])) { result, element in
                    guard let value = element.value else { result = nil; return }
                    result?.append(value)
                }.map(ArchivedValue.array)
            }
        }
    }

    /// The value of a field, if present.
    public subscript(key: String) -> FieldValue? {
        fields.first { $0.key == key }?.value
    }
}

extension ArchivedObject.FieldValue: CustomStringConvertible {
    /// The value as ``ArchivedValue`` prints it; inline values are marked with `inline`.
    public var description: String {
        switch self {
        case .reference(let value): value.description
        case .inline(let plain): "inline " + ((try? ArchivedValue(plain: plain))?.description ?? plain.typeName)
        case .array(let elements): "(" + elements.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

extension ArchivedObject: CustomStringConvertible {
    /// `ClassName {key = value; …}`.
    public var description: String {
        className + " {" + fields.map { "\($0.key) = \($0.value)" }.joined(separator: "; ") + "}"
    }
}
