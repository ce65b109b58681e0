import Foundation
import ResumeDataCodec

/// Chooses a local file name for a download: never a path, never outside the current directory.
public enum DownloadFileName {
    /// The name from `Content-Disposition` (`filename*=UTF-8''…` preferred over `filename=`), else
    /// the URL's last path segment, else `download`. Directory parts, `.`/`..`, control characters
    /// and leading dots are removed, so the result is a plain name in the current directory.
    public static func choose(url: HTTPURL, contentDisposition: String? = nil) -> String {
        choose(parsed: url.url, contentDisposition: contentDisposition)
    }

    /// ``choose(url:contentDisposition:)-(HTTPURL,_)`` for a URL given as text, which need not be
    /// one `HTTPURL`'s rule accepts: its last path segment as Foundation parses it, if it can.
    public static func choose(url: String, contentDisposition: String? = nil) -> String {
        choose(parsed: URL(string: url), contentDisposition: contentDisposition)
    }

    private static func choose(parsed url: URL?, contentDisposition: String?) -> String {
        if let header = contentDisposition, let name = fromContentDisposition(header).flatMap(sanitize) {
            return name
        }
        if let url, let name = sanitize(url.lastPathComponent) {
            return name
        }
        return "download"
    }

    static func fromContentDisposition(_ header: String) -> String? {
        var plain: String?
        var extended: String?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if key == "filename*" {
                // RFC 8187: charset'language'percent-encoded
                let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3 { extended = String(pieces[2]).removingPercentEncoding }
            } else if key == "filename" {
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                plain = value
            }
        }
        return extended ?? plain
    }

    static func sanitize(_ candidate: String) -> String? {
        // Keep only the last component of either separator, so "../../etc/passwd" gives "passwd".
        let last = candidate.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        while name.hasPrefix(".") { name.removeFirst() }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count <= 255 else { return nil }
        return name
    }
}
