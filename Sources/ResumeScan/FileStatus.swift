import Foundation
import ResumeDataCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size and modification time of a file, from `stat`.
public struct FileStatus: Sendable, Hashable {
    /// The size in bytes.
    public let size: Int64
    /// The modification time (`st_mtim`).
    public let modified: Date

    init(_ status: stat) {
        size = Int64(status.st_size)
        modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    /// A status with these values.
    public init(size: Int64, modified: Date) {
        self.size = size
        self.modified = modified
    }
}
