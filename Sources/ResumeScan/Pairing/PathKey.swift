/// A path or a name as a key, equal to another only byte for byte.
///
/// Swift's `String` is equal to, and hashes like, every canonically equivalent spelling:
/// `caf\u{e9}` and `cafe\u{301}` are one string, but two names to Linux file systems, to an
/// archive's members and to a backup's rows. Evidence is looked up by what is on disk, so its
/// paths are keyed by their UTF-8 bytes.
struct PathKey: Hashable, Sendable {
    let path: String

    init(_ path: String) {
        self.path = path
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        lhs.path.utf8.elementsEqual(rhs.path.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
