#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls on a ``BytePath``: its bytes reach the kernel as they are (a path that is
/// not UTF-8 names the file it names), and a NUL among them is refused (`EINVAL`) where they
/// become a C string, never cut there.
extension FileSystemCalls {
    /// `open(2)` of `path`, following links (the user named it).
    package func open(_ path: BytePath, _ flags: Int32) -> Result<Int32, Failure> {
        openat(AT_FDCWD, path, flags)
    }

    /// `path` opened for reading evidence (``openEvidence(in:_:)``: never through a final
    /// link, never blocking on a FIFO).
    package func openEvidence(_ path: BytePath) -> Result<Int32, Failure> {
        openEvidence(in: AT_FDCWD, path)
    }

    /// A root the user named opened for reading evidence: its links resolved first (the user
    /// named the file a link points to), then ``openEvidence(_:)``.
    package func openEvidenceRoot(_ path: BytePath) -> Result<Int32, Failure> {
        openEvidence(resolved(path) ?? path)
    }

    /// `path` with its links, `.` and `..` resolved (`realpath(3)`), as the bytes the system gave;
    /// nil when it cannot be resolved.
    package func resolved(_ path: BytePath) -> BytePath? {
        guard case .success(let resolved) = resolvedPathBytes(path.bytes) else { return nil }
        return BytePath(bytes: resolved)
    }

    /// Whether `path` names a regular file, following links (the user named it).
    package func isRegularFile(_ path: BytePath) -> Bool {
        guard case .success(let status) = statFollowingLinksBytes(path.bytes) else { return false }
        return status.kind == .regular
    }

    /// The one way a folder below a root the user named is opened: the root as given (a link
    /// there is followed, as the user asked for that folder), then each of `names` relative to
    /// the one before with `openat(O_DIRECTORY | O_NOFOLLOW)`, so that no symbolic link below the
    /// root is followed, not even one swapped in meanwhile, and `..` is refused, so nothing
    /// outside the root is reached. The caller closes it. Nil when the root cannot be opened, a
    /// name is `..`, missing, not a folder or a symbolic link.
    package func openFolder(_ names: some Sequence<BytePath>, below root: BytePath) -> Int32? {
        guard case .success(var current) = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return nil }
        for name in names {
            guard !name.isParentName, case .success(let next) = openat(current, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) else {
                _ = close(current)
                return nil
            }
            _ = close(current)
            current = next
        }
        return current
    }
}
