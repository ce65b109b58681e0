/// A property-list integer: every `Int64`, and the `UInt64` values above `Int64.max` that
/// binary property lists store in 16 bytes.
public struct PropertyListInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Invariant: `.unsigned` holds only values above Int64.max, so every number has one spelling
    // and the synthesized equality is numeric equality.
    private enum Storage: Hashable {
        case signed(Int64)
        case unsigned(UInt64)
    }

    private let storage: Storage

    /// Creates an integer from a signed value.
    public init(_ value: Int64) { storage = .signed(value) }

    /// Creates an integer from a platform integer.
    public init(_ value: Int) { storage = .signed(Int64(value)) }

    /// Creates an integer from an unsigned value.
    public init(_ value: UInt64) {
        if let signed = Int64(exactly: value) {
            storage = .signed(signed)
        } else {
            storage = .unsigned(value)
        }
    }

    /// The value as `Int64`, or `nil` when it is above `Int64.max`.
    public var int64Value: Int64? {
        if case .signed(let value) = storage { return value }
        return nil
    }

    /// The value as `UInt64`, or `nil` when it is negative.
    public var uint64Value: UInt64? {
        switch storage {
        case .signed(let value): UInt64(exactly: value)
        case .unsigned(let value): value
        }
    }

    /// Whether the value is below zero.
    public var isNegative: Bool {
        if case .signed(let value) = storage { return value < 0 }
        return false
    }

    /// The value as the nearest `Double`.
    public var doubleValue: Double {
        switch storage {
        case .signed(let value): Double(value)
        case .unsigned(let value): Double(value)
        }
    }

    /// The value in decimal.
    public var description: String {
        switch storage {
        case .signed(let value): String(value)
        case .unsigned(let value): String(value)
        }
    }

    /// Numeric order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.signed(let a), .signed(let b)): a < b
        case (.signed, .unsigned): true
        case (.unsigned, .signed): false
        case (.unsigned(let a), .unsigned(let b)): a < b
        }
    }
}

extension PropertyListInteger: ExpressibleByIntegerLiteral {
    /// Creates an integer from a literal.
    public init(integerLiteral value: Int64) { self.init(value) }
}
