import ResumeDataCodec
import Synchronization

/// What one response hands the download loop, in order. The last event is always ``ended`` or
/// ``failed(_:)`` (or ``overlapMismatched``), and it comes only once every write started for the
/// response has finished, so the loop never decides while bytes are still being written.
enum ResponseEvent: Sendable, Equatable {
    /// The response head; the loop answers with ``ResponseReceiver/accept(at:verifying:upTo:)`` or
    /// ``ResponseReceiver/discard()``. No body byte is read before it does.
    case head(status: Int, headers: [HTTPHeaderField])
    /// This many more bytes are written, right after the previous ones.
    case written(Int64)
    /// The body's first bytes differ from the partial file's bytes they had to repeat.
    case overlapMismatched
    /// The body ended cleanly, or reached the limit it was accepted up to; all of it is written.
    case ended
    /// The transfer failed (connection, timeout, stall, a cancelled request) or a write failed (``TransferError/disk(_:)``).
    case failed(TransferError)
}

extension ResponseEvent {
    /// Carries the events of one or more responses (each tagged with its receiver's number)
    /// from the event loops to the download loop.
    ///
    /// Unlike `AsyncStream`, waiting here ignores task cancellation: a paused download must still
    /// see each response's last event, which proves that no write for it is still running before
    /// the pause checkpoint is written and the partial file is let go. That event always comes:
    /// the receiver stops the request when cancelled, and AsyncHTTPClient then reports the error.
    final class Queue: Sendable {
        private struct State {
            var buffered: [(Int, ResponseEvent)] = []
            var waiter: CheckedContinuation<(Int, ResponseEvent), Never>?
        }

        private let state = Mutex(State())

        func yield(_ event: ResponseEvent, from tag: Int) {
            let waiter = self.state.withLock { state -> CheckedContinuation<(Int, ResponseEvent), Never>? in
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.buffered.append((tag, event))
                return nil
            }
            waiter?.resume(returning: (tag, event))
        }

        /// The next event and the tag of the receiver it comes from, waiting for it. One reader
        /// at a time, which must know that another event is coming (a response is still open).
        func next() async -> (Int, ResponseEvent) {
            await withCheckedContinuation { continuation in
                let ready = self.state.withLock { state -> (Int, ResponseEvent)? in
                    if !state.buffered.isEmpty { return state.buffered.removeFirst() }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

extension ResponseEvent {
    /// True for the last event of a response.
    var isLast: Bool {
        switch self {
        case .ended, .failed, .overlapMismatched: return true
        case .head, .written: return false
        }
    }
}
