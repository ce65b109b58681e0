import Dispatch
import Synchronization

/// Writes checkpoints off the receive path.
///
/// A checkpoint means fsync of the partial file, which can take as long as the disk needs to
/// absorb everything written since the last one; doing it inline would cap the download at disk
/// speed. The bytes a checkpoint covers are fixed when it is submitted (they were all written
/// before), so receiving may go on while it is flushed. One is in flight at a time; a checkpoint
/// submitted meanwhile is dropped, and the next one covers its bytes.
final class CheckpointWriter: Sendable {
    private struct State {
        var busy = false
        var error: TransferError?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = DispatchQueue(label: "ResumeTransfer.checkpoint")
    private let state = Mutex(State())
    private let write: @Sendable (DownloadCheckpoint) throws(TransferError) -> Void

    /// `write` does the fsync and the atomic blob replacement.
    init(write: @escaping @Sendable (DownloadCheckpoint) throws(TransferError) -> Void) {
        self.write = write
    }

    /// Starts writing `checkpoint` in the background unless a write is in flight. Returns the error
    /// of an earlier background write, if one failed (the caller stops then).
    func submit(_ checkpoint: DownloadCheckpoint) -> TransferError? {
        let start = self.state.withLock { state -> Bool? in
            if state.error != nil { return nil }
            if state.busy { return false }
            state.busy = true
            return true
        }
        guard let start else { return self.state.withLock { $0.error } }
        guard start else { return nil }
        self.queue.async {
            var failure: TransferError?
            do throws(TransferError) {
                try self.write(checkpoint)
            } catch {
                failure = error
            }
            let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.busy = false
                if state.error == nil { state.error = failure }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        return nil
    }

    /// Waits until no write is in flight, so a checkpoint written next cannot be overtaken by an
    /// older one. Returns the error of a failed background write.
    func drain() async -> TransferError? {
        await withCheckedContinuation { continuation in
            let resumeNow = self.state.withLock { state -> Bool in
                if state.busy {
                    state.waiters.append(continuation)
                    return false
                }
                return true
            }
            if resumeNow { continuation.resume() }
        }
        return self.state.withLock { $0.error }
    }
}
