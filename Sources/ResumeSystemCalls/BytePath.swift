#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file path held by its bytes, as the kernel, an archive's member table and a backup's rows
/// hold it: the package's one path value, taken apart and put together without file-system access.
///
/// Its bytes are its identity: two paths are equal, hash alike and sort by their bytes, never by
/// `Character`. Swift's `String` takes `caf\u{e9}` and `cafe\u{301}` for one string, which are two
/// names to Linux file systems, and a name that begins with a combining mark hides the `/` before
/// it from a `Character` split (`"a/\u{301}b"` has no `Character` `"/"`).
///
/// Written here rather than taken from swift-system's `FilePath`, which the package graph has:
/// - `FilePath` normalizes on construction (`a//b/` becomes `a/b`), and the paths a report
///   shows must stay as the user typed them and the device wrote them;
/// - it is made from bytes only through a NUL-terminated C string, so a NUL inside a path would
///   silently cut it, where the system-call seam must refuse it (`EINVAL`);
/// - its `description` replaces bytes that are not UTF-8 with U+FFFD, the very collapse that
///   made two evidence files one; a path becomes text here only through a spelling that keeps
///   them apart (`EvidenceName`, in the codec), or ``text`` where it is known to be UTF-8.
///
/// The rules are POSIX `dirname(3)` and `basename(3)`, and for ``absolute(in:)`` the lexical
/// clean-up that `URL.standardizedFileURL` makes (no link is followed). Foundation's own helpers
/// are not used because they cannot be given input: `NSString`'s helper that drops the last name
/// traps on a one-character name in swift-corelibs-foundation 6.3.1 (`-o a`), and
/// `URL(fileURLWithPath:)` asks the file system whether the path is a folder.
package struct BytePath: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path's bytes; no NUL is refused here (the seam refuses one where it becomes a C string).
    package let bytes: [UInt8]

    /// The path with these bytes.
    package init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// ``init(bytes:)-(Sequence<UInt8>)`` for an array, specialized: the generic form, not
    /// specialized across modules, looks up type metadata at every call (3 % of `tasks` on
    /// 10,000 rows).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// ``init(bytes:)-(Sequence<UInt8>)`` for a slice (a name cut out of a path), specialized.
    package init(bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// The path whose bytes are `text`'s UTF-8: a path given as text (an argument, which
    /// `resumetool` takes only as UTF-8; a path a blob holds as a string).
    package init(_ text: some StringProtocol) {
        self.bytes = Array(text.utf8)
    }

    /// ``init(_:)-(StringProtocol)`` for a `String`, specialized: the walk makes one for every
    /// name it lists.
    package init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// The path of `names` with one `/` between each two: `a/b/c`; a leading empty name makes it
    /// absolute (`["", "a"]` is `/a`), as ``names(keepingEmpty:)`` gives them; the empty path
    /// for none.
    package init(joining names: some Sequence<BytePath>) {
        var bytes: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { bytes.append(Self.slash) }
            bytes += name.bytes
        }
        self.bytes = bytes
    }

    /// ``init(joining:)-(Sequence<BytePath>)`` of names given as text (their UTF-8), without
    /// making each a path first. Not generic: the archive scan joins some for every member, and
    /// a generic form, not specialized across modules, spent a quarter of a scan in metadata
    /// look-ups.
    package init(joining names: ArraySlice<String>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(names.reduce(names.count) { $0 + $1.utf8.count })
        var first = true
        for name in names {
            if !first { bytes.append(Self.slash) }
            first = false
            bytes += name.utf8
        }
        self.bytes = bytes
    }

    /// ``init(joining:)-(ArraySlice<String>)`` of a whole array.
    package init(joining names: [String]) {
        self.init(joining: names[...])
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path as text, decoded as UTF-8 (each byte that is not becomes U+FFFD): for a path that
    /// is known to be UTF-8 (it was made from text), never for evidence, whose names are spelled.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package var description: String { text }

    package var isEmpty: Bool { bytes.isEmpty }

    /// Whether the path begins with the `/` byte.
    package var isAbsolute: Bool { bytes.first == Self.slash }

    /// The folder holding the path, as `dirname(3)` says it: `.` for a bare name or the empty
    /// path, `/` for a name in the root; trailing and repeated slashes are not a name.
    package var folder: BytePath {
        let trimmed = withoutTrailingSlashes
        guard !trimmed.isEmpty else { return bytes.isEmpty ? "." : "/" }
        guard let slash = trimmed.lastIndex(of: Self.slash) else { return "." }
        var end = slash
        while end > 0, trimmed[end - 1] == Self.slash { end -= 1 }
        return end == 0 ? "/" : BytePath(bytes: trimmed[..<end])
    }

    /// The last name in the path, as `basename(3)` says it: trailing slashes dropped, `/` for the
    /// root, `.` for the empty path.
    package var lastName: BytePath {
        let trimmed = withoutTrailingSlashes
        guard !trimmed.isEmpty else { return bytes.isEmpty ? "." : "/" }
        guard let slash = trimmed.lastIndex(of: Self.slash) else { return BytePath(bytes: trimmed) }
        return BytePath(bytes: trimmed[(slash + 1)...])
    }

    /// The names in the path, split at each `/` byte; empty names (from `//`, a leading or a
    /// trailing `/`) are kept only when `keepingEmpty` says so.
    package func names(keepingEmpty: Bool = false) -> [BytePath] {
        bytes.split(separator: Self.slash, omittingEmptySubsequences: !keepingEmpty).map { BytePath(bytes: $0) }
    }

    /// `name` inside this folder: one `/` between them, whether or not the folder ends in one.
    package func appending(_ name: BytePath) -> BytePath {
        var joined = bytes
        if joined.last != Self.slash { joined.append(Self.slash) }
        joined += name.bytes
        return BytePath(bytes: joined)
    }

    /// `name` inside `folder`, both held as text, by the rule of ``appending(_:)``: for the walk,
    /// which joins every file's name to its folder's text, without copying either into bytes and
    /// back (three allocations a file where this makes one).
    package static func appending(_ name: String, toFolder folder: String) -> String {
        folder.utf8.last == slash ? folder + name : folder + "/" + name
    }

    /// ``appending(_:)`` with a name given as text (its UTF-8).
    package func appending(_ name: some StringProtocol) -> BytePath {
        appending(BytePath(name))
    }

    /// The path cut at its first `/` byte: the first name and the rest, nil when there is no `/`.
    package var firstNameAndRest: (first: BytePath, rest: BytePath)? {
        guard let slash = bytes.firstIndex(of: Self.slash) else { return nil }
        return (BytePath(bytes: bytes[..<slash]), BytePath(bytes: bytes[(slash + 1)...]))
    }

    /// The path made absolute against `folder` (itself absolute) when it is relative, then cleaned
    /// lexically: empty and `.` names dropped, `..` takes away the name before it (never the
    /// root). No link is resolved: the result names the same file only where no `..` crosses one,
    /// as `URL.standardizedFileURL` has it.
    package func absolute(in folder: BytePath) -> BytePath {
        let whole = isAbsolute ? bytes : folder.bytes + [Self.slash] + bytes
        var names: [ArraySlice<UInt8>] = []
        for name in whole.split(separator: Self.slash, omittingEmptySubsequences: true) {
            if name.elementsEqual(Self.dot) { continue }
            if name.elementsEqual(Self.dotDot) {
                _ = names.popLast()
                continue
            }
            names.append(name)
        }
        var result: [UInt8] = []
        for name in names {
            result.append(Self.slash)
            result += name
        }
        return result.isEmpty ? "/" : BytePath(bytes: result)
    }

    /// The path made absolute against the process's working folder (``absolute(in:)``).
    package var absolute: BytePath {
        absolute(in: Self.workingFolder())
    }

    /// `getcwd(3)`; `/` when it fails (the working folder was removed), where Foundation's
    /// `URL(fileURLWithPath:)` would resolve against the same nothing.
    static func workingFolder() -> BytePath {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return BytePath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// The path without the slashes that end it, `/` when it is slashes alone: so that `DIR/` and
    /// `DIR` print as one path, with one slash before the names below it.
    package var trimmingTrailingSlashes: BytePath {
        guard bytes.last == Self.slash else { return self }
        let trimmed = withoutTrailingSlashes
        return trimmed.isEmpty ? "/" : BytePath(bytes: trimmed)
    }

    /// Whether the path is `folder` or inside it, compared by bytes: `folder` then a `/`, so that
    /// `/a/bc` is not inside `/a/b`.
    package func isInside(_ folder: BytePath) -> Bool {
        guard bytes.starts(with: folder.bytes) else { return false }
        return bytes.count == folder.bytes.count || folder.bytes.last == Self.slash || bytes[folder.bytes.count] == Self.slash
    }

    /// The path below `folder` (one it ``isInside(_:)``), without the `/` that follows the folder;
    /// the empty path for the folder itself; nil when it is not inside.
    package func relative(to folder: BytePath) -> BytePath? {
        guard isInside(folder) else { return nil }
        var rest = bytes[folder.bytes.count...]
        if rest.first == Self.slash { rest = rest.dropFirst() }
        return BytePath(bytes: rest)
    }

    /// Whether the path's bytes end with `suffix`'s UTF-8 (a name's extension, say).
    package func ends(with suffix: some StringProtocol) -> Bool {
        bytes.reversed().starts(with: suffix.utf8.reversed())
    }

    /// The path without `suffix` at its end (a `-wal` file's database, say); nil when it does not
    /// end with it, compared by bytes.
    package func removingSuffix(_ suffix: some StringProtocol) -> BytePath? {
        guard ends(with: suffix) else { return nil }
        return BytePath(bytes: bytes.dropLast(suffix.utf8.count))
    }

    /// Whether this is the name `..`, which climbs out of the folder it is in.
    package var isParentName: Bool { bytes == Self.dotDot }

    /// Whether this is the name `.`.
    package var isCurrentName: Bool { bytes == Self.dot }

    package static func < (lhs: BytePath, rhs: BytePath) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    package static func == (lhs: BytePath, rhs: BytePath) -> Bool {
        // Paths of one archive or tree share long prefixes, and a dictionary compares a key with
        // every key on its probe sequence: the lengths first, then one memcmp (a byte-by-byte walk
        // took 6 % of a 20,000-member scan).
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { a in
            rhs.bytes.withUnsafeBytes { b in
                guard let first = a.baseAddress, let second = b.baseAddress else { return true }
                return memcmp(first, second, a.count) == 0
            }
        }
    }

    package func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    private var withoutTrailingSlashes: ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == Self.slash { end -= 1 }
        return bytes[..<end]
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot: [UInt8] = [UInt8(ascii: ".")]
    private static let dotDot: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: ".")]
}
