import Foundation
import ResumeDataCodec

/// What the engine believes of a resume blob, a server and a partial file, decided without I/O.
///
/// Everything here is a pure function of its arguments, so the tests drive each rule with plain
/// assertions, and the engine, `resume`, `recover` and `discard` share one set of rules:
///
/// - **Paths**: a blob may only name a partial file *directly inside* the folder the caller gave
///   (the blob's folder, `--partial`'s folder or `--tmp-dir`). A name with a folder part could pass
///   through a symbolic link to anywhere, so only bare names are used; the file is then opened
///   with `O_NOFOLLOW` and must be a regular file (``PartialFile``).
/// - **Credentials**: `Authorization`, `Cookie` and `Proxy-Authorization` go only to the origin
///   (scheme, host, port) of the URL the download was started with, never to one a redirect named.
/// - **Redirects**: https → http is refused unless the caller allows it.
/// - **Unproven bytes**: bytes on disk that no strong validator covers are compared with the
///   server's before anything is appended to them (``overlapLength``).
package struct TrustPolicy: Sendable, Equatable {
    /// Headers that identify the user; sent only to the origin they were given for.
    package static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// How many bytes before the end of unproven partial data are fetched again and compared.
    package static let overlapLength: Int64 = 64 << 10

    /// Whether a redirect from https to http may be followed.
    package var allowsInsecureRedirects = false

    package init(allowsInsecureRedirects: Bool = false) {
        self.allowsInsecureRedirects = allowsInsecureRedirects
    }

    // MARK: paths

    /// Where a blob's partial file may be, inside the trusted folder.
    package struct PartialFileChoice: Equatable, Sendable {
        /// Bare file names inside the folder, in the order to try them (the first that exists wins).
        package var names: [String] = []
        /// Paths or names from the blob that may not be used, each with the reason.
        package var rejected: [String] = []
    }

    /// The partial-file names a blob may use inside `folder` (an absolute path).
    ///
    /// `TempFileName` comes first, as Apple's reader takes it; `LocalPath` is used only when it
    /// names a file directly inside `folder`. Anything else is rejected with a reason.
    package static func partialFile(tempFileName: String?, localPath: String?, folder: String) -> PartialFileChoice {
        var choice = PartialFileChoice()
        if let name = tempFileName {
            if ResumeData.isBareFileName(name) {
                choice.names.append(name)
            } else {
                choice.rejected.append("NSURLSessionResumeInfoTempFileName \"\(name)\" is not a bare file name")
            }
        }
        if let path = localPath {
            let normalized = Self.normalize(path)
            let parent = Self.parent(of: normalized)
            let name = String(normalized.dropFirst(parent == "/" ? 1 : parent.count + 1))
            if path.hasPrefix("/"), parent == Self.normalize(folder), ResumeData.isBareFileName(name) {
                if !choice.names.contains(name) { choice.names.append(name) }
            } else {
                choice.rejected.append("NSURLSessionResumeInfoLocalPath \(path) is not inside \(Self.normalize(folder))")
            }
        }
        return choice
    }

    /// `path` with `.`, `..` and repeated slashes resolved by spelling alone (no symbolic link is
    /// read: the result is only compared, and a bare name is what gets opened).
    package static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func parent(of normalized: String) -> String {
        guard let slash = normalized.lastIndex(of: "/") else { return "." }
        return slash == normalized.startIndex ? "/" : String(normalized[..<slash])
    }

    // MARK: origins and credentials

    /// Scheme, host and port: what must stay the same for credentials to be sent.
    package struct Origin: Equatable, Sendable {
        package var scheme: String
        package var host: String
        package var port: Int
    }

    /// The origin of an absolute http or https URL; nil for anything else.
    package static func origin(of url: String) -> Origin? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return Origin(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The caller's headers to send to `url` for a download started at `originalURL`: all of them on
    /// the same origin, all but the credentials anywhere else (curl's rule for redirects).
    package static func headers(_ headers: [HTTPField], to url: String, startedAt originalURL: String) -> [HTTPField] {
        if let target = origin(of: url), target == origin(of: originalURL) { return headers }
        return headers.filter { !credentialHeaders.contains($0.name.lowercased()) }
    }

    /// Where a redirect from `current` leads, or why it must not be followed.
    package func redirect(from current: String, location: String?) -> Result<String, DownloadError> {
        guard let location, !location.isEmpty,
              let base = URL(string: current),
              let target = URL(string: location, relativeTo: base)?.absoluteURL,
              Self.origin(of: target.absoluteString) != nil
        else {
            return .failure(.invalidRedirect(location ?? "(no Location header)"))
        }
        if !self.allowsInsecureRedirects, Self.origin(of: current)?.scheme == "https", Self.origin(of: target.absoluteString)?.scheme == "http" {
            return .failure(.insecureRedirect(target.absoluteString))
        }
        return .success(target.absoluteString)
    }

    // MARK: validators

    /// True when `entityTag` is a strong ETag: the only validator that proves by itself that the
    /// server's bytes are the ones on disk (a Last-Modified has one-second granularity, and a weak
    /// tag only promises equivalent content).
    package static func isStrong(entityTag: String?) -> Bool {
        guard let tag = entityTag, !tag.isEmpty else { return false }
        return !tag.hasPrefix("W/")
    }
}
