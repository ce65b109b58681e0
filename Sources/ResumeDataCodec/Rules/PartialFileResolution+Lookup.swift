#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResumeSystemCalls

extension PartialFileResolution {
    /// What is at `path`, by `lstat` (a symbolic link is reported as one, not followed): the
    /// look-up for callers without a system-call seam of their own.
    public static func entry(at path: String) -> Entry {
        guard case .success(let status) = FileSystemCalls.system.lstat(path) else { return .missing }
        return entry(status)
    }

    /// What a status from the system-call seam is: the one description of each kind, for the
    /// engine's, scan's and this look-up alike.
    package static func entry(_ status: FileSystemCalls.Status) -> Entry {
        switch status.kind {
        case .regular: .regularFile(size: status.size)
        case .directory: .other("a folder")
        case .symbolicLink: .other("a symbolic link")
        case .other:
            switch status.mode & UInt32(S_IFMT) {
            case UInt32(S_IFIFO): .other("a FIFO")
            case UInt32(S_IFSOCK): .other("a socket")
            case UInt32(S_IFCHR), UInt32(S_IFBLK): .other("a device")
            // A fake status without type bits.
            default: .other("a special file")
            }
        }
    }
}
