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
}
