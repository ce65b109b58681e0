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
///
/// Paths are taken apart by their UTF-8 bytes, never by `Character`: a name may begin with a
/// combining mark, and `"a/\u{301}b"` has no `Character` `"/"` (the slash and the mark are one
/// grapheme), so a `Character` split would read it as one name.
package enum FilePathText {
    /// The folder holding `path`, as `dirname(3)` says it: `"."` for a bare name or `""`, `"/"` for
    /// a name in the root; trailing and repeated slashes are not a name.
    package static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard !trimmed.isEmpty else { return path.isEmpty ? "." : "/" }
        guard let slash = trimmed.utf8.lastIndex(of: slashByte) else { return "." }
        let folder = withoutTrailingSlashes(String(decoding: trimmed.utf8[..<slash], as: UTF8.self))
        return folder.isEmpty ? "/" : folder
    }

    /// The last name in `path`, as `basename(3)` says it: trailing slashes dropped, `"/"` for the
    /// root, `"."` for `""`.
    package static func lastName(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard !trimmed.isEmpty else { return path.isEmpty ? "." : "/" }
        guard let slash = trimmed.utf8.lastIndex(of: slashByte) else { return trimmed }
        return String(decoding: trimmed.utf8[trimmed.utf8.index(after: slash)...], as: UTF8.self)
    }

    /// The names in `path`, split at each `/` byte; empty names (from `//`, a leading or a
    /// trailing `/`) are kept only when `keepingEmpty` says so.
    package static func names(of path: String, keepingEmpty: Bool = false) -> [String] {
        path.utf8.split(separator: slashByte, omittingEmptySubsequences: !keepingEmpty).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `name` inside `folder`: one `/` between them, whether or not `folder` ends in one.
    package static func joined(_ folder: String, _ name: String) -> String {
        folder.utf8.last == slashByte ? folder + name : folder + "/" + name
    }

    /// `path` cut at its first `/` byte: the first name and the rest, nil when there is no `/`.
    package static func firstName(of path: String) -> (first: String, rest: String)? {
        guard let slash = path.utf8.firstIndex(of: slashByte) else { return nil }
        return (String(decoding: path.utf8[..<slash], as: UTF8.self), String(decoding: path.utf8[path.utf8.index(after: slash)...], as: UTF8.self))
    }

    /// `path` made absolute against `folder` (itself absolute) when it is relative, then cleaned
    /// lexically: empty and `.` names dropped, `..` takes away the name before it (never the
    /// root). No link is resolved: the result names the same file only where no `..` crosses one,
    /// as `URL.standardizedFileURL` has it.
    static func absolute(_ path: String, in folder: String) -> String {
        let whole = path.utf8.first == slashByte ? path : folder + "/" + path
        var names: [String] = []
        for name in whole.utf8.split(separator: slashByte, omittingEmptySubsequences: true) {
            if name.elementsEqual(".".utf8) { continue }
            if name.elementsEqual("..".utf8) {
                _ = names.popLast()
                continue
            }
            names.append(String(decoding: name, as: UTF8.self))
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

    /// `path` without the slashes that end it, `"/"` when it is slashes alone: so that `DIR/` and
    /// `DIR` print as one path, with one slash before the names below it.
    package static func trimmingTrailingSlashes(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        return trimmed.isEmpty && !path.isEmpty ? "/" : trimmed
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        // Most paths end with a name: returned as they are, without a copy (a scan asks this of
        // every file it walks).
        guard path.utf8.last == slashByte else { return path }
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slashByte { end = bytes.index(before: end) }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    private static let slashByte = UInt8(ascii: "/")
}
