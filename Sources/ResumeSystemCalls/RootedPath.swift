#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a folder below a root the user named is opened: the root as given (a link there
/// is followed, as the user asked for that folder), then each component relative to the one
/// before with `openat(O_DIRECTORY | O_NOFOLLOW)`, so that no symbolic link below the root is
/// followed, not even one swapped in meanwhile, and `..` is refused, so nothing outside the root
/// is reached.
package enum RootedPath {
    /// Opens the folder `components` name below `root` (`root` itself when there are none); the
    /// caller closes it. Nil when the root cannot be opened, a component is `..`, missing, not a
    /// folder or a symbolic link.
    package static func openFolder(_ components: some Sequence<String>, below root: String, calls: FileSystemCalls) -> Int32? {
        openFolder(bytes: components.map { Array($0.utf8) }, belowRoot: Array(root.utf8), calls: calls)
    }

    /// ``openFolder(_:below:calls:)`` with the root and each component given as their bytes,
    /// which need not be UTF-8: a folder whose name is not is opened by the bytes it has.
    package static func openFolder(bytes components: some Sequence<[UInt8]>, belowRoot root: [UInt8], calls: FileSystemCalls) -> Int32? {
        guard case .success(var current) = calls.openatBytes(AT_FDCWD, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return nil }
        for component in components {
            guard component != dotDot, case .success(let next) = calls.openatBytes(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) else {
                _ = calls.close(current)
                return nil
            }
            _ = calls.close(current)
            current = next
        }
        return current
    }

    private static let dotDot: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: ".")]
}
