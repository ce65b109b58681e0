import Testing

@testable import ResumeScan

/// ``HashLimit``: what `--hash-limit` reads, and which files it spares, value by value.
@Suite struct HashLimitTests {
    @Test func argumentsAreSizesOrNone() {
        #expect(HashLimit(argument: "none") == HashLimit.unlimited)
        #expect(HashLimit(argument: "NONE") == HashLimit.unlimited)
        #expect(HashLimit(argument: "0")?.maximumSize == 0)
        #expect(HashLimit(argument: "1073741824")?.maximumSize == 1 << 30)
        #expect(HashLimit(argument: "1K")?.maximumSize == 1024)
        #expect(HashLimit(argument: "512m")?.maximumSize == 512 << 20)
        #expect(HashLimit(argument: "4G")?.maximumSize == 4 << 30)
        #expect(HashLimit(argument: "4GiB")?.maximumSize == 4 << 30)
        #expect(HashLimit(argument: "2T")?.maximumSize == 2 << 40)
        #expect(HashLimit.standard.maximumSize == 4 << 30)
        for refused in ["", "G", "-1", "1.5G", "4 G", "4GB", "lots", "inf", "9223372036854775807K", "99999999999999999999"] {
            #expect(HashLimit(argument: refused) == nil, "\(refused)")
        }
    }

    @Test func sparseAndLargeFilesAreSparedUnlessTheLimitIsNone() {
        let limit = HashLimit.standard
        let gap = HashLimit.sparseHoleMinimum
        // A terabyte of holes.
        #expect(limit.skip(size: 1 << 40, allocatedSize: 0) == HashSkip(reason: .sparse, size: 1 << 40, allocatedSize: 0, limit: 4 << 30))
        // Exactly the minimum of holes, more than half the file: sparse; one byte fewer: not.
        #expect(limit.skip(size: gap, allocatedSize: 0)?.reason == .sparse)
        #expect(limit.skip(size: gap - 1, allocatedSize: 0) == nil)
        // Holes of the minimum, but half the file or more allocated: not sparse.
        #expect(limit.skip(size: 2 * gap, allocatedSize: gap) == nil)
        #expect(limit.skip(size: 2 * gap, allocatedSize: gap - 1)?.reason == .sparse)
        // Fully allocated, or more (a file system's preallocation): hashed up to the limit.
        #expect(limit.skip(size: 4 << 30, allocatedSize: 4 << 30) == nil)
        #expect(limit.skip(size: 1000, allocatedSize: 4096) == nil)
        #expect(limit.skip(size: (4 << 30) + 1, allocatedSize: (4 << 30) + 4096)
                == HashSkip(reason: .large, size: (4 << 30) + 1, allocatedSize: (4 << 30) + 4096, limit: 4 << 30))
        // The allocation unknown (a backup's record): only the size decides.
        #expect(limit.skip(size: 1 << 40, allocatedSize: nil)?.reason == .large)
        #expect(limit.skip(size: 1 << 20, allocatedSize: nil) == nil)
        // none hashes everything.
        #expect(HashLimit.unlimited.skip(size: 1 << 40, allocatedSize: 0) == nil)
        #expect(HashLimit(maximumSize: 0).skip(size: 1, allocatedSize: 4096)?.reason == .large)
        #expect(HashLimit(maximumSize: 0).skip(size: 0, allocatedSize: 0) == nil)
    }
}
