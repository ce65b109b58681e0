import Foundation

/// The URLs of `download -i LIST`: one per line, blank lines and lines starting with `#`
/// skipped, CR LF accepted (wget's and aria2c's input-file rules, without their options).
enum URLList {
    /// The URLs in `text`, each with its 1-based line number.
    static func parse(_ text: String) -> [(line: Int, url: String)] {
        var urls: [(line: Int, url: String)] = []
        // "\r\n" is one Character in Swift, so it is named as a separator of its own.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, raw) in lines.enumerated() {
            let line = String(raw).trimmingLeadingAndTrailingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            urls.append((index + 1, line))
        }
        return urls
    }
}
