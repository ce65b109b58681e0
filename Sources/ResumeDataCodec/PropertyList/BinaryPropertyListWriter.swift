import Foundation

/// Writes `bplist00` binary property lists. (Placeholder: filled in by the binary work.)
struct BinaryPropertyListWriter {
    func write(_ value: PropertyListValue) throws -> Data {
        throw PropertyListError(.unrepresentable, "binary writing is not implemented yet")
    }
}
