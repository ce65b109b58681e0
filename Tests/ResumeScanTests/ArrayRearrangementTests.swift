import Testing

@testable import ResumeScan

/// `rearrange(by:)` against `order.map { array[$0] }`, which it replaces, on every permutation of
/// up to six elements and on random ones.
@Suite struct ArrayRearrangementTests {
    static func permutations(_ count: Int) -> [[Int]] {
        guard count > 0 else { return [[]] }
        return permutations(count - 1).flatMap { smaller in
            (0...smaller.count).map { position in
                var bigger = smaller
                bigger.insert(count - 1, at: position)
                return bigger
            }
        }
    }

    @Test(arguments: 0...6)
    func everyPermutation(count: Int) {
        let elements = (0..<count).map { "e\($0)" }
        for order in Self.permutations(count) {
            var arranged = elements
            arranged.rearrange(by: order)
            #expect(arranged == order.map { elements[$0] }, "order \(order)")
        }
    }

    @Test func sevenHundredTwentyPermutationsOfSix() {
        #expect(Self.permutations(6).count == 720)
        #expect(Set(Self.permutations(6)).count == 720)
    }

    /// Seeded, so that a failure repeats; the message names the seed, and the order when short.
    @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func randomPermutationsOfManyElements(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        for count in [7, 100, 10_000] {
            let elements = (0..<count).map { $0 * 3 }
            let order = Array(0..<count).shuffled(using: &generator)
            var arranged = elements
            arranged.rearrange(by: order)
            #expect(arranged == order.map { elements[$0] }, "seed \(seed), \(count) elements\(count <= 100 ? ", order \(order)" : "")")
        }
    }
}
