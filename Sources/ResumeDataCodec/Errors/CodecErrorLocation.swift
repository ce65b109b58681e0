/// Where in the input a failure is.
public enum CodecErrorLocation: Hashable, Sendable {
    /// No position is known.
    case unknown
    /// A byte offset in binary input, with the index of the object being read when known.
    case byteOffset(Int, objectIndex: Int?)
    /// A 1-based line and column in XML input.
    case lineColumn(line: Int, column: Int)

    /// The position as a diagnostic prefix: `3:17` or `byte 0x1a4`, or `nil` when unknown.
    var prefix: String? {
        switch self {
        case .unknown: nil
        case .lineColumn(let line, let column): "\(line):\(column)"
        case .byteOffset(let offset, _): "byte 0x\(String(offset, radix: 16))"
        }
    }
}
