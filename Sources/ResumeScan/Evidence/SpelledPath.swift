import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A root the user named, reached by the bytes its spelling stands for.
///
/// Inside the scan a root is text spelled as names found in evidence are (``EvidenceName``): a
/// path that is UTF-8 and holds no `\x{` as it is, any other with its bytes escaped. So a folder
/// or archive whose name is not UTF-8 (a Latin-1 folder copied from an old share) can be scanned,
/// is shown escaped, and pairs by bytes like everything below it. Every system call on a root's
/// path is made here; below a root, folders and files are opened relative to their folder.
enum SpelledPath {
    /// `open(2)` of `path`, following links (the user named it); ENOENT for text that is no
    /// path's spelling, EINVAL for one holding a NUL byte.
    static func open(_ path: String, _ flags: Int32, calls: FileSystemCalls) -> Result<Int32, FileSystemCalls.Failure> {
        bytes(of: path).flatMap { calls.openatBytes(AT_FDCWD, $0, flags) }
    }

    /// `path` opened for reading evidence (``FileSystemCalls/openEvidence(in:bytes:)``: never
    /// through a final link, never blocking on a FIFO).
    static func openEvidence(_ path: String, calls: FileSystemCalls) -> Result<Int32, FileSystemCalls.Failure> {
        bytes(of: path).flatMap { calls.openEvidence(in: AT_FDCWD, bytes: $0) }
    }

    /// A root the user named opened for reading evidence: its links resolved first (the user
    /// named the file a link points to), then ``openEvidence(_:calls:)``.
    static func openRoot(_ path: String, calls: FileSystemCalls) -> Result<Int32, FileSystemCalls.Failure> {
        openEvidence(resolved(path, calls: calls) ?? path, calls: calls)
    }

    /// `path` with its links resolved (`realpath(3)`), spelled from the bytes it gives (not
    /// `String(cString:)`, which would make a folder named by byte FF and one named U+FFFD the
    /// same path); nil when it cannot be resolved.
    static func resolved(_ path: String, calls: FileSystemCalls = .system) -> String? {
        guard case .success(let resolved) = bytes(of: path).flatMap(calls.resolvedPathBytes) else { return nil }
        return EvidenceName.text(ofPath: resolved)
    }

    /// Whether `path` names a regular file, following links (the user named it).
    static func isRegularFile(_ path: String, calls: FileSystemCalls = .system) -> Bool {
        guard case .success(let status) = bytes(of: path).flatMap(calls.statFollowingLinksBytes) else { return false }
        return status.kind == .regular
    }

    /// The bytes `path`'s spelling stands for; ENOENT for text that is no path's spelling (no
    /// file has it). A NUL among them is refused where they become a C string.
    private static func bytes(of path: String) -> Result<[UInt8], FileSystemCalls.Failure> {
        guard let bytes = EvidenceName.bytes(ofPath: path) else { return .failure(FileSystemCalls.Failure(ENOENT)) }
        return .success(bytes)
    }
}
