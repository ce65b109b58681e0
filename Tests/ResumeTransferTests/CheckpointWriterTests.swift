import Foundation
import Synchronization
import Testing

@testable import ResumeTransfer

@Suite struct CheckpointWriterTests {
    private func checkpoint(_ bytes: Int64) -> DownloadCheckpoint {
        DownloadCheckpoint(originalURL: "http://127.0.0.1/x", currentURL: "http://127.0.0.1/x", bytesReceived: bytes)
    }

    @Test func oneWriteInFlightAndDrainWaitsForIt() async throws {
        let written = Mutex<[Int64]>([])
        let gate = DispatchSemaphore(value: 0)
        let writer = CheckpointWriter { checkpoint throws(TransferError) in
            gate.wait()
            written.withLock { $0.append(checkpoint.bytesReceived) }
        }
        #expect(writer.submit(self.checkpoint(10)) == nil)
        // Dropped: the first is still being flushed; the next checkpoint will cover these bytes.
        #expect(writer.submit(self.checkpoint(20)) == nil)
        gate.signal()
        #expect(await writer.drain() == nil)
        #expect(written.withLock { $0 } == [10])
        gate.signal()
        #expect(writer.submit(self.checkpoint(30)) == nil)
        #expect(await writer.drain() == nil)
        #expect(written.withLock { $0 } == [10, 30])
    }

    @Test func aFailedWriteIsReportedAndStopsLaterOnes() async throws {
        let calls = Mutex(0)
        let writer = CheckpointWriter { _ throws(TransferError) in
            calls.withLock { $0 += 1 }
            throw .disk("write x.resume.tmp: No space left on device")
        }
        #expect(writer.submit(self.checkpoint(1)) == nil)
        #expect(await writer.drain() == .disk("write x.resume.tmp: No space left on device"))
        #expect(writer.submit(self.checkpoint(2)) == .disk("write x.resume.tmp: No space left on device"))
        #expect(await writer.drain() == .disk("write x.resume.tmp: No space left on device"))
        #expect(calls.withLock { $0 } == 1)
    }
}
