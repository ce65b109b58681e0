/// Which files `scan`, `inspect` and `validate` hash whole, and which they only describe: a file
/// is read to its end to be hashed, and a sparse file costs nothing to make and as much to read
/// as its apparent size (`truncate -s 1T` made a scan read a terabyte of zeros for 13 minutes).
public struct HashLimit: Sendable, Hashable {
    /// The largest apparent size hashed; nil hashes every file, sparse ones too.
    public var maximumSize: Int64?

    /// A limit of `maximumSize` bytes (nil: none).
    public init(maximumSize: Int64?) {
        self.maximumSize = maximumSize
    }

    /// 4 GiB: above any resume blob, plist or ledger by far, and above most partial downloads,
    /// while the SHA-256 of 4 GiB is seconds, not minutes, on a laptop's disk.
    public static let standard = HashLimit(maximumSize: 4 << 30)
    /// Every file hashed, whatever its size and holes.
    public static let unlimited = HashLimit(maximumSize: nil)

    /// A file is called sparse when at least this many of its bytes are holes and its holes are
    /// more than half of it: a file system's compression or a last partial block never comes near.
    public static let sparseHoleMinimum: Int64 = 64 << 20

    /// `none`, or a size in bytes with an optional `K`, `M`, `G` or `T` suffix (powers of 1024,
    /// `KiB`, `MiB`, `GiB`, `TiB` too); nil for anything else.
    public init?(argument: String) {
        let text = argument.lowercased()
        if text == "none" {
            self = .unlimited
            return
        }
        var digits = Substring(text)
        var shift: Int64 = 0
        for (suffix, power) in [("kib", 10), ("mib", 20), ("gib", 30), ("tib", 40), ("k", 10), ("m", 20), ("g", 30), ("t", 40)] as [(String, Int64)]
        where digits.hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            shift = power
            break
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int64(digits) else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: Int64(1) << shift)
        guard !overflow else { return nil }
        self.maximumSize = bytes
    }

    /// Why a file of `size` apparent bytes, `allocatedSize` of them held by the file system
    /// (nil: not known), is not hashed; nil when it is.
    public func skip(size: Int64, allocatedSize: Int64?) -> HashSkip? {
        guard let maximumSize else { return nil }
        if let allocatedSize, size - allocatedSize >= Self.sparseHoleMinimum, allocatedSize < size / 2 {
            return HashSkip(reason: .sparse, size: size, allocatedSize: allocatedSize, limit: maximumSize)
        }
        if size > maximumSize { return HashSkip(reason: .large, size: size, allocatedSize: allocatedSize, limit: maximumSize) }
        return nil
    }
}

/// A file whose SHA-256 was not computed (``HashLimit``), and why.
public struct HashSkip: Sendable, Hashable {
    /// Why.
    public enum Reason: String, Sendable, Hashable {
        /// Its apparent size is far beyond what the file system holds for it.
        case sparse
        /// Its apparent size is above the limit.
        case large
    }

    /// Why.
    public var reason: Reason
    /// The apparent size (`st_size`).
    public var size: Int64
    /// What the file system holds for it (`st_blocks` × 512), when known.
    public var allocatedSize: Int64?
    /// The limit in force.
    public var limit: Int64

    /// A skip with these values.
    public init(reason: Reason, size: Int64, allocatedSize: Int64?, limit: Int64) {
        self.reason = reason
        self.size = size
        self.allocatedSize = allocatedSize
        self.limit = limit
    }

    /// How a user gets the hash anyway.
    public static let remedy = "resumetool scan --hash-limit none hashes it"
}
