#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let left = lhs.path.utf8
        let right = rhs.path.utf8
        // A dictionary compares a key with every key on its probe sequence, and paths of one
        // archive share long prefixes: the lengths first, then one memcmp where both are
        // contiguous (native strings are), where a byte-by-byte walk of `UTF8View` took 6 % of a
        // 20,000-member scan.
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { a in
            right.withContiguousStorageIfAvailable { b in
                guard let first = a.baseAddress, let second = b.baseAddress else { return a.count == b.count }
                return memcmp(first, second, a.count) == 0
            }
        }
        if let same, let same { return same }
        return left.elementsEqual(right)
    }

    func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
