/// A property-list real number, remembering its binary width.
///
/// Binary property lists store reals in 4 or 8 bytes; XML has one spelling for both. Keeping the
/// width lets a binary plist be written back byte for byte. Equality compares the exact bits, so a
/// value read back equals the value written, `nan` included.
public struct PropertyListReal: Sendable, Hashable, CustomStringConvertible {
    /// The number.
    public var value: Double
    /// Whether a binary property list stored it as a 32-bit float.
    public var isSinglePrecision: Bool

    /// Creates a 64-bit real.
    public init(_ value: Double) {
        self.value = value
        self.isSinglePrecision = false
    }

    /// Creates a 32-bit real.
    public init(_ value: Float) {
        self.value = Double(value)
        self.isSinglePrecision = true
    }

    /// The value as Swift prints it.
    public var description: String { value.description }

    /// Bit-exact equality: `nan` equals itself, `0.0` and `-0.0` differ.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value.bitPattern == rhs.value.bitPattern && lhs.isSinglePrecision == rhs.isSinglePrecision
    }

    /// Hashes the exact bits, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value.bitPattern)
        hasher.combine(isSinglePrecision)
    }
}

extension PropertyListReal: ExpressibleByFloatLiteral {
    /// Creates a 64-bit real from a literal.
    public init(floatLiteral value: Double) { self.init(value) }
}
