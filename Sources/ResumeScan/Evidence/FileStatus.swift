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
    /// The status change time (`st_ctim`), when known.
    public var changed: Date?
    /// The birth time, where `stat` has one (not on Linux).
    public var created: Date?
    /// `st_mode`, type bits included, when known.
    public var mode: UInt32?
    /// The bytes the file system holds for it (`st_blocks` × 512), when known: far below
    /// ``size`` for a sparse file.
    public var allocatedSize: Int64?

    init(_ status: FileSystemCalls.Status) {
        size = status.size
        modified = Date(timeIntervalSince1970: Double(status.modifiedSeconds) + Double(status.modifiedNanoseconds) / 1e9)
        changed = Date(timeIntervalSince1970: Double(status.changedSeconds) + Double(status.changedNanoseconds) / 1e9)
        created = status.createdSeconds.map { Date(timeIntervalSince1970: Double($0) + Double(status.createdNanoseconds) / 1e9) }
        mode = status.mode == 0 ? nil : status.mode
        allocatedSize = status.allocatedSize
    }

    /// A status with these values.
    public init(size: Int64, modified: Date) {
        self.size = size
        self.modified = modified
    }
}
