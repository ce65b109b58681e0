import ResumeSystemCalls

/// A path as a device recorded it (a blob's `NSURLSessionResumeInfoLocalPath`, a ledger task's
/// partial file), read as the device's file system reads it: by its bytes. Apple logs and stores
/// such paths behind a `/.nofollow` prefix, which names no folder, and `/var` is a link to
/// `/private/var`. One rule for the ledger's look-ups and an archive's candidates, without I/O.
enum DevicePath {
    static let noFollowPrefix = "/.nofollow"

    /// `path` without a leading `/.nofollow` that stands alone or before a `/` (the prefix alone
    /// leaves the empty path); any other path as it is.
    static func withoutNoFollow(_ path: String) -> String {
        let prefix = noFollowPrefix.utf8
        guard path.utf8.starts(with: prefix) else { return path }
        let rest = path.utf8.dropFirst(prefix.count)
        guard rest.isEmpty || rest.first == UInt8(ascii: "/") else { return path }
        return String(decoding: rest, as: UTF8.self)
    }

    /// Whether `path` begins with the `/` byte (a combining mark after it does not hide it, as it
    /// does from `String.hasPrefix`).
    static func isAbsolute(_ path: String) -> Bool {
        path.utf8.first == UInt8(ascii: "/")
    }

    /// The names of an absolute path below `/private/var` (a `/var/…` path is the same place),
    /// `private` and `var` first, `.` names left out; nil for a path elsewhere, a relative one,
    /// one with no name below `/private/var`, or one holding `..` (which could leave the folder
    /// the names are joined to).
    static func privateVarNames(of path: String) -> [String]? {
        guard isAbsolute(path) else { return nil }
        var names = FilePathText.names(of: path).filter { $0 != "." }
        guard !names.contains("..") else { return nil }
        if names.first == "var" { names.insert("private", at: 0) }
        guard names.count > 2, names[0] == "private", names[1] == "var" else { return nil }
        return names
    }
}
