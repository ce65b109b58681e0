import Foundation
import ResumeDataCodec

/// What the engine believes of a resume blob, a server and a partial file, decided without I/O.
///
/// Everything here is a pure function of its arguments, so the tests drive each rule with plain
/// assertions. (Which partial file a blob may touch is the codec's `PartialFileResolution`;
/// what a URL is, its `HTTPURL`.)
///
/// - **Credentials**: `Authorization`, `Cookie` and `Proxy-Authorization` go only to the origin
///   (scheme, host, port) of the URL the download was started with, never to one a redirect named.
/// - **Redirects**: https → http is refused unless the caller allows it.
/// - **Unproven bytes**: bytes on disk that no strong validator covers are compared with the
///   server's before anything is appended to them (``overlapLength``).
struct TrustPolicy: Sendable, Equatable {
    /// Headers that identify the user; sent only to the origin they were given for (the codec's
    /// list, which `edit` drops by when a blob moves to another origin).
    static let credentialHeaders: Set<String> = Set(HTTPHeaderField.credentialNames.map { $0.lowercased() })

    /// How many bytes before the end of unproven partial data are fetched again and compared.
    static let overlapLength: Int64 = 64 << 10

    /// Whether a redirect from https to http may be followed.
    var allowsInsecureRedirects = false

    /// Whether `status` is a redirect the engine follows (with its `Location`, bounded by the
    /// configuration's count): the download, its segments and `explain --probe` ask this alone.
    /// 300 (a choice for people) and 305 (use proxy, deprecated) are not followed, as in curl.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    init(allowsInsecureRedirects: Bool = false) {
        self.allowsInsecureRedirects = allowsInsecureRedirects
    }

    // MARK: origins and credentials

    /// The caller's headers to send to `url` for a download started at `originalURL`: all of them on
    /// the same origin, all but the credentials anywhere else (curl's rule for redirects).
    static func headers(_ headers: [HTTPHeaderField], to url: HTTPURL, startedAt originalURL: OriginalURL) -> [HTTPHeaderField] {
        if originalURL.hasSameOrigin(as: url) { return headers }
        return headers.filter { !credentialHeaders.contains($0.name.lowercased()) }
    }

    /// Where a redirect from `current` leads, or why it must not be followed. The target is
    /// checked here, once: from here on it is carried as the checked URL.
    func redirect(from current: HTTPURL, location: String?) -> Result<HTTPURL, TransferError> {
        guard let location, !location.isEmpty,
              let resolved = URL(string: location, relativeTo: current.url)?.absoluteURL,
              let target = HTTPURL(resolved.absoluteString)
        else {
            return .failure(.invalidRedirect(location ?? "(no Location header)"))
        }
        if !self.allowsInsecureRedirects, current.scheme == "https", target.scheme == "http" {
            return .failure(.insecureRedirect(target.string))
        }
        return .success(target)
    }
}
