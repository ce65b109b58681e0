internal import RawStructuredFieldValues
import ResumeDataCodec

/// The server's `Upload-Limit` (draft -04 on): the sizes it takes, a structured-field dictionary
/// such as `max-size=1000000, max-append-size=65536`. The server may send it on the 104 and on
/// any answer; the client checks the file against it before sending more, and cuts its appends
/// to `max-append-size`. Pure: no I/O.
///
/// A field that does not parse is ignored, as RFC 9651 has it for any structured field; so are
/// keys this client does not use (`expires`, `max-age`, later ones) and members that are not
/// integers. A negative size reads as absent (none of the draft's sizes can be negative).
struct UploadLimit: Sendable, Hashable {
    /// `max-size`: the largest upload the server takes, in bytes.
    var maximumSize: Int64?
    /// `min-size`: the smallest.
    var minimumSize: Int64?
    /// `max-append-size`: the most bytes one request may carry (the creation's or an append's).
    var maximumAppendSize: Int64?

    init(maximumSize: Int64? = nil, minimumSize: Int64? = nil, maximumAppendSize: Int64? = nil) {
        self.maximumSize = maximumSize
        self.minimumSize = minimumSize
        self.maximumAppendSize = maximumAppendSize
    }

    static let field = "Upload-Limit"

    /// The limits in `fields`; nil when there is no `Upload-Limit` or it does not parse.
    static func read(_ fields: [HTTPHeaderField]) -> UploadLimit? {
        guard let text = fields.value(of: Self.field) else { return nil }
        var parser = StructuredFieldValueParser(Array(text.utf8))
        guard let dictionary = try? parser.parseDictionaryFieldValue() else { return nil }
        var limit = UploadLimit()
        for (key, member) in dictionary {
            guard case .item(let item) = member, case .integer(let value) = item.rfc9651BareItem, value >= 0 else { continue }
            switch key {
            case "max-size": limit.maximumSize = value
            case "min-size": limit.minimumSize = value
            case "max-append-size": limit.maximumAppendSize = value
            default: continue
            }
        }
        return limit
    }

    /// Why a file of `size` bytes, of which the server holds `offset`, cannot be uploaded under
    /// these limits; nil when it can. Asked only before bytes are sent: a server that answers
    /// "complete" with a limit has nothing more to refuse.
    func refusal(size: Int64, offset: Int64 = 0) -> String? {
        if let maximumSize, size > maximumSize {
            return "the server takes uploads of at most \(maximumSize) bytes (Upload-Limit), and the file has \(size)"
        }
        if let minimumSize, size < minimumSize {
            return "the server takes uploads of at least \(minimumSize) bytes (Upload-Limit), and the file has \(size)"
        }
        if let maximumAppendSize {
            if maximumAppendSize == 0 {
                return "the server takes no bytes in any request (Upload-Limit: max-append-size=0)"
            }
            // A hostile or broken server could ask for a byte per request: bounded, as every
            // count a server controls is.
            let remaining = max(size - max(offset, 0), 0)
            let requests = remaining / maximumAppendSize + (remaining % maximumAppendSize == 0 ? 0 : 1)
            if requests > Self.maximumRequests {
                let bytes = offset > 0 ? "\(remaining) bytes left to send" : "file's \(size) bytes"
                return "the server takes at most \(maximumAppendSize) byte\(maximumAppendSize == 1 ? "" : "s") per request (Upload-Limit: max-append-size), "
                    + "and the \(bytes) would take more than \(Self.maximumRequests) requests"
            }
        }
        return nil
    }

    /// The most requests an upload may be cut into by `max-append-size`.
    static let maximumRequests: Int64 = 100_000

    /// How many of the `remaining` bytes the next append carries: all of them, or
    /// `max-append-size` when that is fewer (the append then leaves the upload incomplete).
    func appendLength(remaining: Int64) -> Int64 {
        guard let maximumAppendSize, maximumAppendSize > 0 else { return max(remaining, 0) }
        return min(max(remaining, 0), maximumAppendSize)
    }
}
