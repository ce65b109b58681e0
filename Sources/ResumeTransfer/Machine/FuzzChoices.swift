/// The fuzzer's bytes, read as a sequence of choices; nil when they run out. The fuzzing checks
/// (``HTTPAnswerCheck``, ``UploadAnswerCheck``) script their servers' answers with it.
struct FuzzChoices {
    /// Numbers at the edges: zero, around powers of two and 1000, the largest, negative.
    static let numbers: [Int64] = [0, 1, 2, 999, 1000, 1001, 65_535, 65_536, 65_537, 100_000, 1 << 32, Int64.max - 1, Int64.max, -1]

    let bytes: [UInt8]
    var index = 0

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func pick<T>(_ options: [T]) -> T? {
        byte().map { options[Int($0) % options.count] }
    }

    mutating func flag() -> Bool? { byte().map { $0 & 1 == 1 } }

    /// An interesting number, a small one, or one near `anchor`.
    mutating func number(near anchor: Int64) -> Int64? {
        guard let kind = byte() else { return nil }
        switch kind % 4 {
        case 0: return pick(Self.numbers)
        case 1: return byte().map { Int64($0) }
        case 2: return byte().map { anchor &+ Int64($0) &- 8 }
        default: return anchor
        }
    }
}
