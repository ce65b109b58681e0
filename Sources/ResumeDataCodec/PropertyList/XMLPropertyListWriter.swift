import Foundation

/// Writes XML property lists in Apple's layout. (Placeholder: filled in by the XML work.)
struct XMLPropertyListWriter {
    var keyOrder: PropertyListWriter.KeyOrder
    func write(_ value: PropertyListValue) throws -> Data {
        throw PropertyListError(.unrepresentable, "XML writing is not implemented yet")
    }
}
