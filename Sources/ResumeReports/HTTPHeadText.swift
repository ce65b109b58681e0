import ResumeDataCodec

/// A request or response head as `-v` prints it, curl's way (`> ` going out, `< ` coming in),
/// with the credentials masked: a log of a download is pasted into bug reports and chats, and
/// the token in it would outlive the paste.
public enum HTTPHeadText {
    /// The fields whose value is a credential: only an Authorization scheme is kept.
    static let credentials: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// `> GET URL` and one `> Name: value` line per field.
    public static func request(method: String, url: HTTPURL, headers: [HTTPHeaderField]) -> String {
        lines("> \(method) \(url.shown)", headers, prefix: "> ")
    }

    /// `< STATUS` and one `< Name: value` line per field.
    public static func response(status: Int, headers: [HTTPHeaderField]) -> String {
        lines("< \(status)", headers, prefix: "< ")
    }

    /// The value to show: a credential's scheme (`Basic`, `Bearer`) and `<hidden>`.
    public static func shown(_ field: HTTPHeaderField) -> String {
        let name = field.name.lowercased()
        guard credentials.contains(name) else { return field.value }
        if name.hasSuffix("authorization"), let scheme = field.value.split(separator: " ").first, scheme.count < field.value.count {
            return "\(scheme) <hidden>"
        }
        return "<hidden>"
    }

    private static func lines(_ first: String, _ headers: [HTTPHeaderField], prefix: String) -> String {
        // The URL and the server's fields are untrusted: control characters are shown escaped.
        var out = VisibleText.escaping(first) + "\n"
        for field in headers {
            out += prefix + VisibleText.escaping("\(field.name): \(shown(field))") + "\n"
        }
        return out
    }
}
