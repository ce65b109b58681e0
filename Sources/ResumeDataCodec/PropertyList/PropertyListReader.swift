import Foundation

/// Reads property lists in either format, choosing by the first bytes.
public struct PropertyListReader: Sendable {
    /// The limits applied while reading.
    public var options: PropertyListReadOptions

    /// Creates a reader with the given limits.
    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Which format some bytes are in: binary when they start with `bplist0` and one more byte
    /// (any version digit, as Apple's readers accept), else XML.
    public static func format(of bytes: some Collection<UInt8>) -> PropertyListFormat {
        BinaryPropertyListReader.hasMagic(bytes) ? .binary : .xml
    }

    /// A property list as read, with what the reader accepted but a strict reader refuses.
    public struct Document: Sendable, Hashable {
        /// The top value.
        public var value: PropertyListValue
        /// The format the input was in.
        public var format: PropertyListFormat
        /// Faults the options let through, in input order: today, each key a dictionary held
        /// twice (`PropertyListError.Code.duplicateKey`, with its position and key path; the
        /// last value was kept, as Apple's reader does). Empty for a clean file.
        public var warnings: [PropertyListError]
    }

    /// Reads a property list, returning its top value and the format it was in.
    /// - Throws: ``PropertyListError`` saying what is wrong and where.
    public func read(_ data: Data) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        let document = try readDocument(data)
        return (document.value, document.format)
    }

    /// Reads a property list, returning its top value, its format and the warnings of
    /// ``Document/warnings``.
    /// - Throws: ``PropertyListError`` saying what is wrong and where.
    public func readDocument(_ data: Data) throws -> Document {
        guard data.count <= options.maximumInputSize else {
            throw PropertyListError(.tooLarge, "input is \(data.count) bytes, more than the limit of \(options.maximumInputSize)")
        }
        switch Self.format(of: data) {
        case .binary:
            let read = try BinaryPropertyListReader(options: options).readReportingWarnings(data)
            return Document(value: read.value, format: .binary, warnings: read.warnings)
        case .xml:
            let read = try XMLPropertyListReader(options: options).readReportingWarnings(data)
            return Document(value: read.value, format: .xml, warnings: read.warnings)
        }
    }
}
