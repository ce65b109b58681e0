import Foundation

/// Writes property lists in either format.
public struct PropertyListWriter: Sendable {
    /// How dictionary keys are ordered in XML output.
    public enum KeyOrder: Sendable, Hashable {
        /// The order the dictionary holds them in (the default).
        case preserved
        /// Sorted, as Apple's XML writer sorts them.
        case sorted
    }

    /// Key order for XML output. Binary output always keeps the dictionary's order.
    public var keyOrder: KeyOrder

    /// Creates a writer.
    public init(keyOrder: KeyOrder = .preserved) {
        self.keyOrder = keyOrder
    }

    /// Serialises a value in the given format.
    /// - Throws: ``PropertyListError`` with code `PropertyListError.Code.unrepresentable` when
    ///   the format cannot hold the value.
    public func write(_ value: PropertyListValue, as format: PropertyListFormat) throws -> Data {
        switch format {
        case .xml: try XMLPropertyListWriter(keyOrder: keyOrder).write(value)
        case .binary: try BinaryPropertyListWriter().write(value)
        }
    }
}
