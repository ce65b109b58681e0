import Synchronization

/// What one response hands the download loop, in order. The last event is always ``ended`` or
/// ``failed(_:)`` (or ``overlapMismatched``), and it comes only once every write started for the
/// response has finished, so the loop never decides while bytes are still being written.
enum ResponseEvent: Sendable, Equatable {
    /// The response head; the loop answers with ``ResponseReceiver/accept(at:verifying:upTo:)`` or
    /// ``ResponseReceiver/discard()``. No body byte is read before it does.
    case head(status: Int, headers: [HTTPField])
    /// This many more bytes are written, right after the previous ones.
    case written(Int64)
    /// The body's first bytes differ from the partial file's bytes they had to repeat.
    case overlapMismatched
    /// The body ended cleanly, or reached the limit it was accepted up to; all of it is written.
    case ended
    /// The transfer failed (connection, timeout, stall, a cancelled request) or a write failed (``DownloadError/disk(_:)``).
    case failed(DownloadError)
}

extension ResponseEvent {
    /// Carries a response's events from the event loop to the download loop.
    ///
    /// Unlike `AsyncStream`, waiting here ignores task cancellation: a paused download must still
    /// see its response's last event, which proves that no write for it is still running before
    /// the pause checkpoint is written and the partial file is let go. That event always comes:
    /// the receiver stops the request when cancelled, and AsyncHTTPClient then reports the error.
    final class Queue: Sendable {
        private struct State {
            var buffered: [ResponseEvent] = []
            var waiter: CheckedContinuation<ResponseEvent?, Never>?
            var finished = false
        }

        private let state = Mutex(State())

        func yield(_ event: ResponseEvent) {
            let waiter = self.state.withLock { state -> CheckedContinuation<ResponseEvent?, Never>? in
                guard !state.finished else { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.buffered.append(event)
                return nil
            }
            waiter?.resume(returning: event)
        }

        /// No event follows; ``next()`` returns nil once the buffered ones are taken.
        func finish() {
            let waiter = self.state.withLock { state -> CheckedContinuation<ResponseEvent?, Never>? in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }

        /// The next event, waiting for it; nil after the last. One reader at a time.
        func next() async -> ResponseEvent? {
            await withCheckedContinuation { continuation in
                let ready = self.state.withLock { state -> ResponseEvent?? in
                    if !state.buffered.isEmpty { return .some(state.buffered.removeFirst()) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
