import Testing
@testable import ResumeDataCodec

@Suite struct BinaryPropertyListUniquingIndexTests {
    /// Inserts `number` with `hash` where the lookup says, expecting it to be missing.
    func insert(_ number: Int, hash: UInt32, into index: inout BinaryPropertyListUniquingIndex) {
        guard case .missing(let slot) = index.lookup(hash: hash, matches: { _ in false }) else {
            Issue.record("object \(number) was found before it was inserted")
            return
        }
        index.insert(number, hash: hash, at: slot)
    }

    @Test func emptyIndexFindsNothing() {
        let index = BinaryPropertyListUniquingIndex()
        var calls = 0
        #expect(index.lookup(hash: 5, matches: { _ in calls += 1; return true }) == .missing(slot: 5))
        #expect(calls == 0)
        #expect(index.capacity == 16)
        #expect(index.count == 0)
    }

    @Test func collidingHashesAreAllOfferedUntilOneMatches() {
        var index = BinaryPropertyListUniquingIndex()
        for number in 0 ..< 100 { insert(number, hash: 7, into: &index) }
        #expect(index.count == 100)
        #expect(index.capacity == 256)
        var offered: [Int] = []
        #expect(index.lookup(hash: 7, matches: { offered.append($0); return $0 == 42 }) == .found(42))
        #expect(offered.contains(42) && offered.count <= 100)
        offered = []
        guard case .missing = index.lookup(hash: 7, matches: { offered.append($0); return false }) else {
            Issue.record("found an object no one matched")
            return
        }
        #expect(Set(offered) == Set(0 ..< 100))
    }

    @Test func onlyObjectsWithTheSameHashAreCompared() {
        var index = BinaryPropertyListUniquingIndex()
        // Both start at slot 5 of 16; only the full hash tells them apart.
        insert(1, hash: 0x1_0005, into: &index)
        insert(2, hash: 0x5, into: &index)
        var offered: [Int] = []
        #expect(index.lookup(hash: 0x5, matches: { offered.append($0); return true }) == .found(2))
        #expect(offered == [2])
        #expect(index.lookup(hash: 0x2_0005, matches: { _ in true }) == .missing(slot: 7))
    }

    @Test func probingWrapsAroundTheEnd() {
        var index = BinaryPropertyListUniquingIndex()
        for number in 0 ..< 3 { insert(number, hash: 15, into: &index) }
        #expect(index.lookup(hash: 15, matches: { _ in false }) == .missing(slot: 2))
        for number in 0 ..< 3 {
            #expect(index.lookup(hash: 15, matches: { $0 == number }) == .found(number))
        }
    }

    @Test func growingKeepsEveryObject() {
        var index = BinaryPropertyListUniquingIndex()
        var generator = SeededGenerator(state: 77)
        let hashes = (0 ..< 5_000).map { _ in UInt32(truncatingIfNeeded: generator.next()) }
        for (number, hash) in hashes.enumerated() {
            insert(number, hash: hash, into: &index)
            // Never more than three-quarters full.
            #expect(index.count * 4 <= index.capacity * 3)
        }
        #expect(index.capacity == 8_192)
        for (number, hash) in hashes.enumerated() {
            #expect(index.lookup(hash: hash, matches: { $0 == number }) == .found(number))
        }
    }

    @Test func largestNumbersSurvive() {
        var index = BinaryPropertyListUniquingIndex(capacity: 20)
        #expect(index.capacity == 32)
        insert(BinaryPropertyListUniquingIndex.maximumNumber, hash: UInt32.max, into: &index)
        insert(0, hash: 0, into: &index)
        #expect(index.lookup(hash: UInt32.max, matches: { _ in true }) == .found(BinaryPropertyListUniquingIndex.maximumNumber))
        #expect(index.lookup(hash: 0, matches: { _ in true }) == .found(0))
    }
}
