import Foundation
import ResumeDataCodec
import ResumeSystemCalls
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

    init(_ status: FileSystemCalls.Status) {
        size = status.size
        modified = Date(timeIntervalSince1970: Double(status.modifiedSeconds) + Double(status.modifiedNanoseconds) / 1e9)
    }

    /// A status with these values.
    public init(size: Int64, modified: Date) {
        self.size = size
        self.modified = modified
    }
}
