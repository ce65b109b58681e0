/// The one rule for which `ETag` values are strong: the only validator that proves by itself
/// that a server's bytes are the ones on disk, and so the only one `If-Range` may carry in
/// place of a date (RFC 9110 §8.8.1, §13.1.5). A `Last-Modified` has one-second granularity and
/// a weak tag only promises equivalent content.
public enum EntityTag {
    /// Whether `value`, an `ETag` as the server sent it (quotes included), is strong: present,
    /// not empty and not marked weak with `W/`.
    ///
    /// `""`, two quotes around nothing, is strong: RFC 9110's opaque-tag may be empty. The empty
    /// string is no tag at all. Quotes are not demanded: servers that leave them off are common,
    /// and a tag is only ever sent back or compared byte for byte with what the server sends.
    public static func isStrong(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        return !value.hasPrefix("W/")
    }

    /// The longest tag `If-Range` carries, quotes included. Servers refuse a whole head for one
    /// long field (nginx's 8 KiB line buffers, 431 elsewhere), and real tags are hashes and
    /// versions of at most a few dozen bytes: a longer one in a blob is noise or an attack, not
    /// a validator to send.
    public static let maximumSentLength = 1024

    /// Whether `value` may go back to the server in `If-Range`: a strong tag in RFC 9110's form,
    /// `"` opaque-tag `"` with only etagc bytes (0x21, 0x23–0x7E, 0x80–0xFF) between, at most
    /// ``maximumSentLength`` bytes. A tag without its quotes is no entity-tag: a server reads it
    /// as a date it cannot parse and answers with the whole file, so where it is the only
    /// validator the bytes on disk are compared with the server's instead.
    public static func canGoInIfRange(_ value: String?) -> Bool {
        guard isStrong(value), let bytes = value?.utf8, bytes.count >= 2, bytes.count <= maximumSentLength,
              bytes.first == quote, bytes.last == quote else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
    }

    private static let quote = UInt8(ascii: "\"")
}
