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
        return entry(mode: status.mode, size: status.size)
    }

    /// What a `stat` of this mode and size is.
    public static func entry(mode: UInt32, size: Int64) -> Entry {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): .regularFile(size: size)
        case UInt32(S_IFDIR): .other("a folder")
        case UInt32(S_IFLNK): .other("a symbolic link")
        case UInt32(S_IFIFO): .other("a FIFO")
        case UInt32(S_IFSOCK): .other("a socket")
        default: .other("a device")
        }
    }
}
