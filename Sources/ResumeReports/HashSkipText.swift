import ResumeScan

/// How every report says that a file was not hashed (``HashSkip``): the same words in the text
/// reports, the same members in every JSON.
package enum HashSkipText {
    /// `not hashed: sparse, 1,099,511,627,776 bytes (1.0 TiB) apparent, 0 bytes allocated (resumetool scan --hash-limit none hashes it)`.
    package static func sentence(_ skip: HashSkip) -> String {
        let what = switch skip.reason {
        case .sparse:
            "sparse, \(ByteCount.describe(skip.size)) apparent, \(skip.allocatedSize.map(ByteCount.describe) ?? "unknown") allocated"
        case .large:
            "\(ByteCount.describe(skip.size)), above the \(ByteCount.describe(skip.limit)) hash limit"
        }
        return "not hashed: \(what) (\(HashSkip.remedy))"
    }

    /// `null`, or `{reason, size, allocatedSize, limit, remedy}`.
    package static func json(_ skip: HashSkip?) -> JSONValue {
        guard let skip else { return .null }
        return .object([
            ("reason", .string(skip.reason.rawValue)),
            ("size", .integer(skip.size)),
            ("allocatedSize", skip.allocatedSize.map(JSONValue.integer) ?? .null),
            ("limit", .integer(skip.limit)),
            ("remedy", .string(HashSkip.remedy)),
        ])
    }

    /// `sparse (allocated 0 of 1099511627776 bytes)`, for a table's one field; empty when hashed.
    package static func field(_ skip: HashSkip?) -> String {
        guard let skip else { return "" }
        return "\(skip.reason.rawValue): \(skip.size) bytes apparent, \(skip.allocatedSize.map(String.init) ?? "unknown") allocated, limit \(skip.limit)"
    }
}
