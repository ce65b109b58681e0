import Foundation
import Testing

@testable import ResumeTransfer

private func record(_ plan: inout SegmentPlan, _ id: Int, count: Int64) -> Bool {
    plan.wrote(id, count: count)
}

private func shrink(_ plan: inout SegmentPlan, _ id: Int, to end: Int64) -> Range<Int64>? {
    plan.shrink(id, to: end)
}

/// ``SegmentPlan`` on plain values: who fetches what, what the checkpoint may claim, and the
/// blob's range key against hostile text.
@Suite struct SegmentPlanTests {
    @Test func piecesSplitTheLargestUntilEveryConnectionHasOne() {
        let plan = SegmentPlan(total: 100, done: [], minimumSplit: 10)
        #expect(plan.initialPieces(connections: 4) == [0..<25, 25..<50, 50..<75, 75..<100])
        #expect(plan.initialPieces(connections: 1) == [0..<100])
        // Halves under the minimum are not made: 100 bytes with 30 at least make 2 pieces, not 4.
        #expect(SegmentPlan(total: 100, done: [], minimumSplit: 30).initialPieces(connections: 4) == [0..<50, 50..<100])
    }

    @Test func piecesSkipFinishedRangesAndStartAtThePrefix() {
        let plan = SegmentPlan(total: 100, done: [0..<10, 40..<60], minimumSplit: 5)
        #expect(plan.prefix == 10)
        #expect(plan.rangesBeyondPrefix == [40..<60])
        #expect(plan.unassigned == [10..<40, 60..<100])
        #expect(plan.initialPieces(connections: 3) == [10..<40, 60..<80, 80..<100])
        // More holes than connections: every hole is a piece; the extra ones wait for a free connection.
        #expect(plan.initialPieces(connections: 1) == [10..<40, 60..<100])
    }

    @Test func writesMergeIntoThePrefixAndTheRanges() {
        var plan = SegmentPlan(total: 100, done: [], minimumSplit: 10)
        plan.assign(0, 0..<50)
        plan.assign(1, 50..<100)
        #expect(record(&plan, 1, count: 20))
        #expect(plan.prefix == 0)
        #expect(plan.rangesBeyondPrefix == [50..<70])
        #expect(record(&plan, 0, count: 50))
        #expect(plan.prefix == 70)
        #expect(plan.rangesBeyondPrefix == [])
        #expect(plan.bytesDone == 70)
        // Past its segment: refused, nothing counted.
        #expect(!record(&plan, 0, count: 1))
        #expect(!record(&plan, 1, count: 31))
        #expect(!record(&plan, 7, count: 1))
        #expect(!record(&plan, 1, count: -1))
        #expect(plan.bytesDone == 70)
        #expect(record(&plan, 1, count: 30))
        #expect(plan.isComplete)
        #expect(plan.unassigned == [])
    }

    @Test func anIdleConnectionTakesHalfOfTheLargestRest() {
        var plan = SegmentPlan(total: 1000, done: [], minimumSplit: 100)
        plan.assign(0, 0..<500)
        plan.assign(1, 500..<1000)
        #expect(record(&plan, 0, count: 300))
        #expect(record(&plan, 1, count: 100))
        // Connection 1 has 400 left from 600 (split at 800), connection 0 has 200.
        let candidate = plan.splitCandidate()
        #expect(candidate?.id == 1 && candidate?.at == 800)
        #expect(shrink(&plan, 1, to: 750) == 750..<1000)
        #expect(plan.unassigned == [750..<1000])
        // A shrink that would keep nothing back, or cut below what is written, is refused.
        #expect(shrink(&plan, 1, to: 750) == nil)
        #expect(shrink(&plan, 1, to: 599) == nil)
        // A connection that stops gives its unwritten rest back.
        plan.release(0)
        #expect(plan.unassigned == [300..<500, 750..<1000])
        // Rests under twice the minimum are not split.
        var small = SegmentPlan(total: 150, done: [], minimumSplit: 100)
        small.assign(0, 0..<150)
        #expect(small.splitCandidate() == nil)
    }

    @Test func blobRangesAreClippedAndMerged() {
        let plan = SegmentPlan(total: 100, done: [90..<200, -5..<3, 150..<160, 3..<3, 20..<30, 25..<40], minimumSplit: 1)
        #expect(plan.prefix == 3)
        #expect(plan.rangesBeyondPrefix == [20..<40, 90..<100])
        #expect(SegmentPlan(total: -5, done: [0..<10], minimumSplit: 0).initialPieces(connections: 4) == [])
    }

    @Test func rangeKeyRoundTripsAndRefusesAnythingElse() {
        #expect(SegmentPlan.format([0..<10, 20..<30, 40..<40]) == "0-9,20-29")
        #expect(SegmentPlan.parse("20-29,0-9") == [0..<10, 20..<30])
        #expect(SegmentPlan.parse("0-9,10-19") == [0..<20])
        #expect(SegmentPlan.parse("") == [])
        for hostile in [
            "-", "5-3", "a-b", "1-2,", ",1-2", "1-2-3", " 1-2", "+1-2", "1", "-1-2",
            "9223372036854775807-9223372036854775807", "99999999999999999999-1", "0-99999999999999999999",
        ] {
            #expect(SegmentPlan.parse(hostile) == nil, "\(hostile)")
        }
        let many = Array(repeating: "1-2", count: 4097).joined(separator: ",")
        #expect(SegmentPlan.parse(many) == nil)
        #expect(SegmentPlan.parse(Array(repeating: "1-2", count: 4096).joined(separator: ",")) == [1..<3])
    }
}
