import Foundation

/// Reads property lists in either format, choosing by the first bytes.
public struct PropertyListReader: Sendable {
    /// The limits applied while reading.
    public var options: PropertyListReadOptions

    /// Creates a reader with the given limits.
    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Which format some bytes are in: binary when they start with `bplist00`, else XML.
    public static func format(of bytes: some Collection<UInt8>) -> PropertyListFormat {
        BinaryPropertyListReader.hasMagic(bytes) ? .binary : .xml
    }

    /// Reads a property list, returning its top value and the format it was in.
    /// - Throws: ``PropertyListError`` saying what is wrong and where.
    public func read(_ data: Data) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        guard data.count <= options.maximumInputSize else {
            throw PropertyListError(.tooLarge, "input is \(data.count) bytes, more than the limit of \(options.maximumInputSize)")
        }
        switch Self.format(of: data) {
        case .binary:
            return (try BinaryPropertyListReader(options: options).read(data), .binary)
        case .xml:
            return (try XMLPropertyListReader(options: options).read(data), .xml)
        }
    }
}
