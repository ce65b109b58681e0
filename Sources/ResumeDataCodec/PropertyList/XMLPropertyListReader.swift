import Foundation

/// Reads XML property lists through libxml2. (Placeholder: filled in by the XML work.)
struct XMLPropertyListReader {
    var options: PropertyListReadOptions
    init(options: PropertyListReadOptions) { self.options = options }
    func read(_ data: Data) throws -> PropertyListValue {
        throw PropertyListError(.unknownFormat, "XML reading is not implemented yet")
    }
}
