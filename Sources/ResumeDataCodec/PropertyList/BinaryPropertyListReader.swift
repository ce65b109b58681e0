import Foundation

/// Reads `bplist00` binary property lists. (Placeholder: filled in by the binary work.)
struct BinaryPropertyListReader {
    static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: Array("bplist00".utf8))
    }
    var options: PropertyListReadOptions
    init(options: PropertyListReadOptions) { self.options = options }
    func read(_ data: Data) throws -> PropertyListValue {
        throw PropertyListError(.unknownFormat, "binary reading is not implemented yet")
    }
}
