// The types the machine speaks in: its settings, its answers to the I/O layer and its states.
extension DownloadStateMachine {
    /// The machine's knobs, all from ``DownloadConfiguration`` (``DownloadConfiguration/machine``):
    /// the machine has no defaults of its own. Stalls are detected by the HTTP client's read
    /// timeout and reported through ``transportFailed(_:)``.
    struct Configuration: Sendable {
        /// Redirects followed in one chain (reset by any other answer).
        var maximumRedirects: Int
        /// When to retry, how long to wait, when to give up.
        var retry: RetryPolicy
        /// What to believe of redirects and unproven bytes.
        var policy: TrustPolicy
        /// A checkpoint is due after this many new bytes...
        var checkpointBytes: Int64
        /// ...or after this much time with new bytes.
        var checkpointInterval: Duration
    }

    /// What the I/O layer must do next.
    enum Action: Equatable, Sendable {
        /// Send a GET with these headers; discard any response in flight first.
        case sendRequest(RequestPlan)
        /// The response body is the file's bytes from `offset - overlap`: truncate the partial file
        /// to `offset`; compare the body's first `overlap` bytes with the file's bytes before
        /// `offset` and call ``overlapMismatched()`` if they differ; write the rest from `offset`.
        /// When starting over, `restartCheckpoint` must be written before the first byte, so an old
        /// checkpoint never describes new bytes.
        case receiveBody(offset: Int64, overlap: Int64 = 0, restartCheckpoint: DownloadCheckpoint?)
        /// The event was taken; nothing to do until the next one.
        case none
        /// The event came too late for the current state (a byte after a pause, a timer after a
        /// failure, a failure after the end) and changed nothing; the last action still stands.
        case ignored
        /// fsync the partial file, then write this checkpoint next to it atomically (the bytes it
        /// counts are all written already, so receiving may continue meanwhile).
        case checkpoint(DownloadCheckpoint)
        /// Drop the connection, write the checkpoint, sleep, then call ``retryTimerFired()``.
        case retry(after: Duration, checkpoint: DownloadCheckpoint)
        /// The partial file holds the whole body: verify it, then move it into place.
        case finish(length: Int64, checkpoint: DownloadCheckpoint)
        /// Stop; the partial file and this checkpoint stay for a later resume.
        case fail(TransferError, checkpoint: DownloadCheckpoint)
        /// Stop because the user asked; write the checkpoint.
        case pause(DownloadCheckpoint)
    }

    struct Progress: Equatable, Sendable {
        /// The end of the bytes on disk that belong to the file.
        var written: Int64
        /// Where this response's new bytes began.
        var prefix: Int64
        var total: Int64?
        /// One past the last byte of a 206's range; nil for a 200.
        var rangeEnd: Int64?
        /// This attempt started over from zero after bytes had been received.
        var restarted: Bool
        var lastCheckpointBytes: Int64
        var lastCheckpointTime: Duration
    }

    enum State: Equatable, Sendable {
        /// Before ``start()``.
        case idle
        /// A request is in flight, for the bytes from `start`; the bytes before `prefix` are on
        /// disk and are kept (those from `start` to `prefix` only once the server's match them).
        case requesting(start: Int64, prefix: Int64)
        /// A response's body is being written.
        case receiving(Progress)
        /// Several connections fetch segments of a file of `total` bytes (see ``SegmentPlan``);
        /// the checkpoint holds the prefix and the other finished ranges.
        case segmented(total: Int64, best: Int64, lastCheckpointBytes: Int64, lastCheckpointTime: Duration)
        /// A retry timer runs.
        case waitingToRetry
        /// The partial file is being verified and moved into place.
        case finishing
        case paused
        case done
        case failed
    }
}
