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
        switch bytes(of: path) {
        case .success(let bytes): calls.openatBytes(AT_FDCWD, bytes, flags)
        case .failure(let failure): .failure(failure)
        }
    }

    /// `path` opened for reading evidence (``FileSystemCalls/openEvidence(in:bytes:)``: never
    /// through a final link, never blocking on a FIFO).
    static func openEvidence(_ path: String, calls: FileSystemCalls) -> Result<Int32, FileSystemCalls.Failure> {
        switch bytes(of: path) {
        case .success(let bytes): calls.openEvidence(in: AT_FDCWD, bytes: bytes)
        case .failure(let failure): .failure(failure)
        }
    }

    /// `path` with its links resolved (`realpath(3)`), spelled from the bytes it gives (not
    /// `String(cString:)`, which would make a folder named by byte FF and one named U+FFFD the
    /// same path); nil when it cannot be resolved.
    static func resolved(_ path: String) -> String? {
        guard case .success(let bytes) = bytes(of: path) else { return nil }
        let resolved = withCString(bytes, failing: nil) { realpath($0, nil) }
        guard let resolved else { return nil }
        defer { free(resolved) }
        return EvidenceName.text(ofPath: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// Whether `path` names a regular file, following links (the user named it).
    static func isRegularFile(_ path: String) -> Bool {
        guard case .success(let bytes) = bytes(of: path) else { return false }
        var status = stat()
        guard withCString(bytes, failing: -1, { stat($0, &status) }) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    private static func bytes(of path: String) -> Result<[UInt8], FileSystemCalls.Failure> {
        guard let bytes = EvidenceName.bytes(ofPath: path) else { return .failure(FileSystemCalls.Failure(ENOENT)) }
        // A NUL would end the C string early and name another file.
        guard !bytes.contains(0), !bytes.isEmpty else { return .failure(FileSystemCalls.Failure(bytes.isEmpty ? ENOENT : EINVAL)) }
        return .success(bytes)
    }

    private static func withCString<T>(_ bytes: [UInt8], failing: T, _ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return failing }
            return body(base)
        }
    }
}
