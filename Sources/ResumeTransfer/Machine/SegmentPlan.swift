/// Which bytes of a file several connections fetch at once (`--connections N`), without I/O.
///
/// The file is `0..<total`. ``done`` holds the ranges written and counted (the checkpoint's
/// prefix and its extra ranges); each connection works on one segment, written from its start
/// on. When a connection finishes early, the largest unwritten rest of another is split in two
/// (as aria2c does), so all connections stay busy until the end. Every number here may come from
/// a server or a blob: arithmetic is on validated, non-negative values only.
struct SegmentPlan: Equatable, Sendable {
    /// The part of the file one connection fetches.
    struct Segment: Equatable, Sendable {
        /// The first byte asked for.
        var start: Int64
        /// One past the last byte it may write.
        var end: Int64
        /// The next byte it writes (`start` plus what it wrote).
        var next: Int64

        var remaining: Int64 { self.end - self.next }
    }

    /// The file's length.
    let total: Int64
    /// A segment is split only when each half would hold at least this many bytes.
    let minimumSplit: Int64
    /// Written and counted, sorted, disjoint and not touching (adjacent ranges are merged).
    private(set) var done: [Range<Int64>]
    /// The segment of each connection, by its number.
    private(set) var active: [Int: Segment] = [:]

    /// `done` is clipped to the file and merged (a blob's ranges are not trusted to be tidy).
    init(total: Int64, done: [Range<Int64>], minimumSplit: Int64) {
        self.total = max(total, 0)
        self.minimumSplit = max(minimumSplit, 1)
        let whole = 0..<max(total, 0)
        self.done = Self.merged(done.filter { $0.overlaps(whole) }.map { $0.clamped(to: whole) })
    }

    /// Bytes written from byte 0 on without a gap: what `NSURLSessionResumeBytesReceived` may say.
    var prefix: Int64 {
        guard let first = self.done.first, first.lowerBound == 0 else { return 0 }
        return first.upperBound
    }

    /// The written ranges after the prefix (the blob's extra key).
    var rangesBeyondPrefix: [Range<Int64>] {
        self.done.filter { $0.lowerBound > 0 }
    }

    /// All bytes written so far.
    var bytesDone: Int64 {
        self.done.reduce(0) { $0 + Int64($1.count) }
    }

    var isComplete: Bool { self.prefix == self.total }

    /// Bytes neither written nor being fetched, in order.
    var unassigned: [Range<Int64>] {
        var taken = self.done
        for segment in self.active.values where segment.next < segment.end { taken.append(segment.next..<segment.end) }
        return Self.complement(of: Self.merged(taken), in: 0..<self.total)
    }

    /// The pieces to start `connections` connections with: the unassigned bytes, the largest
    /// piece halved while there are fewer pieces than connections. In file order, so the first
    /// piece starts where the bytes still missing begin.
    func initialPieces(connections: Int) -> [Range<Int64>] {
        var pieces = self.unassigned
        while pieces.count < connections, let index = pieces.indices.max(by: { pieces[$0].count < pieces[$1].count }) {
            let piece = pieces[index]
            guard Int64(piece.count) >= 2 * self.minimumSplit else { break }
            let middle = piece.lowerBound + Int64(piece.count) / 2
            pieces.replaceSubrange(index...index, with: [piece.lowerBound..<middle, middle..<piece.upperBound])
        }
        return pieces
    }

    /// Connection `id` now fetches `range` (which must be unassigned).
    mutating func assign(_ id: Int, _ range: Range<Int64>) {
        self.active[id] = Segment(start: range.lowerBound, end: range.upperBound, next: range.lowerBound)
    }

    /// Connection `id` wrote `count` more bytes. False when that goes past its segment: the
    /// caller stopped it at the segment's end, so this is a bug, and nothing is counted.
    mutating func wrote(_ id: Int, count: Int64) -> Bool {
        guard var segment = self.active[id], count >= 0, count <= segment.remaining else { return false }
        if count == 0 { return true }
        self.done = Self.merged(self.done + [segment.next..<segment.next + count])
        segment.next += count
        self.active[id] = segment
        return true
    }

    /// Connection `id` stopped; what it did not write becomes unassigned again.
    mutating func release(_ id: Int) {
        self.active[id] = nil
    }

    /// The connection with the largest unwritten rest, and where to split it, when each half
    /// would hold at least ``minimumSplit`` bytes.
    func splitCandidate() -> (id: Int, at: Int64)? {
        guard let (id, segment) = self.active.max(by: { ($0.value.remaining, $1.key) < ($1.value.remaining, $0.key) }),
              segment.remaining >= 2 * self.minimumSplit
        else { return nil }
        return (id, segment.next + segment.remaining / 2)
    }

    /// Connection `id` now stops at `end` (its receiver agreed); returns the bytes given up,
    /// which are unassigned now.
    mutating func shrink(_ id: Int, to end: Int64) -> Range<Int64>? {
        guard var segment = self.active[id], end >= segment.next, end < segment.end else { return nil }
        let freed = end..<segment.end
        segment.end = end
        self.active[id] = segment
        return freed
    }

    /// The ranges as the blob's extra key spells them: `FIRST-LAST` (inclusive, as HTTP does),
    /// comma-separated.
    static func format(_ ranges: [Range<Int64>]) -> String {
        ranges.filter { !$0.isEmpty }.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")
    }

    /// Parses ``format(_:)``; nil for anything else (then the ranges are fetched again, which is
    /// always safe). At most `limit` ranges, so a hostile blob cannot make the plan huge.
    static func parse(_ text: String, limit: Int = 4096) -> [Range<Int64>]? {
        if text.isEmpty { return [] }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= limit else { return nil }
        var ranges: [Range<Int64>] = []
        for part in parts {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let first = number(bounds[0]), let last = number(bounds[1]), first <= last,
                  last < Int64.max
            else { return nil }
            ranges.append(first..<last + 1)
        }
        return merged(ranges)
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    static func merged(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        var result: [Range<Int64>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    private static func complement(of taken: [Range<Int64>], in whole: Range<Int64>) -> [Range<Int64>] {
        var holes: [Range<Int64>] = []
        var cursor = whole.lowerBound
        for range in taken {
            if range.lowerBound > cursor { holes.append(cursor..<min(range.lowerBound, whole.upperBound)) }
            cursor = max(cursor, range.upperBound)
            if cursor >= whole.upperBound { break }
        }
        if cursor < whole.upperBound { holes.append(cursor..<whole.upperBound) }
        return holes.filter { !$0.isEmpty }
    }
}
