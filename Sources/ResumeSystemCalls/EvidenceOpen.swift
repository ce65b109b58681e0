import CSpliceShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way `scan` opens a file of the evidence: read-only, never through a symbolic link
/// (`O_NOFOLLOW`), never blocking on a FIFO put in a file's place (`O_NONBLOCK`), and with
/// `O_NOATIME` so that reading it gives it no new access time. The kernel allows `O_NOATIME` only
/// to the file's owner (or root): refused with EPERM, the file is opened without it, as iLEAPP and
/// every forensic reader must.
extension FileSystemCalls {
    /// The flags of an evidence read, `O_NOATIME` included where the system has it.
    static let evidenceFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | csplice_noatime_flag()

    /// `openat(folder, name)` for reading evidence.
    package func openEvidence(in folder: Int32, _ name: BytePath) -> Result<Int32, Failure> {
        withoutNoAtimeIfRefused { self.openat(folder, name, $0) }
    }

    private func withoutNoAtimeIfRefused(_ open: (Int32) -> Result<Int32, Failure>) -> Result<Int32, Failure> {
        let flags = Self.evidenceFlags
        let opened = open(flags)
        if case .failure(let failure) = opened, failure.code == EPERM, flags != flags & ~csplice_noatime_flag() {
            return open(flags & ~csplice_noatime_flag())
        }
        return opened
    }

    /// `open(path)` for reading evidence.
    package func openEvidence(atPath path: String) -> Result<Int32, Failure> {
        withoutNoAtimeIfRefused { self.open(path, $0, 0) }
    }
}
