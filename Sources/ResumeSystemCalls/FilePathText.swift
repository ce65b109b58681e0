#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file path taken apart and put together as text, with no file-system access: the package's
/// one rule for a path's folder, its last name and its absolute form.
///
/// Written by hand because Foundation's helpers cannot be given input: `NSString`'s helper that
/// drops the last name traps on a one-character name in swift-corelibs-foundation 6.3.1
/// (`-o a`), and `URL(fileURLWithPath:)` asks the file system whether the path is a folder. The
/// rules are POSIX `dirname(3)` and `basename(3)`, and for ``absolute(_:in:)`` the lexical clean-up
/// that `URL.standardizedFileURL` makes (no link is followed).
package enum FilePathText {
    /// The folder holding `path`, as `dirname(3)` says it: `"."` for a bare name or `""`, `"/"` for
    /// a name in the root; trailing and repeated slashes are not a name.
    package static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard !trimmed.isEmpty else { return path.isEmpty ? "." : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last name in `path`, as `basename(3)` says it: trailing slashes dropped, `"/"` for the
    /// root, `"."` for `""`.
    package static func lastName(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard !trimmed.isEmpty else { return path.isEmpty ? "." : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `path` made absolute against `folder` (itself absolute) when it is relative, then cleaned
    /// lexically: empty and `.` names dropped, `..` takes away the name before it (never the
    /// root). No link is resolved: the result names the same file only where no `..` crosses one,
    /// as `URL.standardizedFileURL` has it.
    static func absolute(_ path: String, in folder: String) -> String {
        let whole = path.hasPrefix("/") ? path : folder + "/" + path
        var names: [Substring] = []
        for name in whole.split(separator: "/", omittingEmptySubsequences: true) {
            switch name {
            case ".": continue
            case "..": _ = names.popLast()
            default: names.append(name)
            }
        }
        return "/" + names.joined(separator: "/")
    }

    /// `path` made absolute against the process's working folder (``absolute(_:in:)``).
    package static func absolute(_ path: String) -> String {
        absolute(path, in: workingFolder())
    }

    /// `getcwd(3)`; `"/"` when it fails (the working folder was removed), where Foundation's
    /// `URL(fileURLWithPath:)` would resolve against the same nothing.
    static func workingFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        return String(path[..<end])
    }
}
