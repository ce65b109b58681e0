import ResumeSystemCalls

/// A path as a device recorded it (a blob's `NSURLSessionResumeInfoLocalPath`, a ledger task's
/// partial file), read as the device's file system reads it: by its bytes. Apple logs and stores
/// such paths behind a `/.nofollow` prefix, which names no folder, and `/var` is a link to
/// `/private/var`. One rule for the ledger's look-ups and an archive's candidates, without I/O.
extension BytePath {
    static let noFollowPrefix: BytePath = "/.nofollow"

    /// The path without a leading `/.nofollow` that stands alone or before a `/` (the prefix
    /// alone leaves the empty path); any other path as it is.
    var withoutNoFollow: BytePath {
        let prefix = Self.noFollowPrefix.bytes
        guard bytes.starts(with: prefix) else { return self }
        let rest = bytes.dropFirst(prefix.count)
        guard rest.isEmpty || rest.first == UInt8(ascii: "/") else { return self }
        return BytePath(bytes: rest)
    }

    /// The names of an absolute path below `/private/var` (a `/var/…` path is the same place),
    /// `private` and `var` first, `.` names left out; nil for a path elsewhere, a relative one,
    /// one with no name below `/private/var`, or one holding `..` (which could leave the folder
    /// the names are joined to).
    var privateVarNames: [BytePath]? {
        guard isAbsolute else { return nil }
        var names = names().filter { !$0.isCurrentName }
        guard !names.contains(where: \.isParentName) else { return nil }
        if names.first == "var" { names.insert("private", at: 0) }
        guard names.count > 2, names[0] == "private", names[1] == "var" else { return nil }
        return names
    }
}
