import Synchronization

/// Fetches a file in segments over several connections (`--connections N`), once the first
/// response showed that the server can (see ``DownloadStateMachine/beginSegments(acceptsRanges:now:)``).
///
/// The first response keeps going as the first segment; the others are requested with `Range`
/// and `If-Range` (``DownloadStateMachine/segmentRequest(_:)``, so ``TrustPolicy`` decides their
/// headers like any other request's) and judged by ``DownloadStateMachine/judgeSegment(status:headers:range:)``.
/// ``SegmentPlan`` decides who fetches what. Each segment's connection is opened the way the
/// first response came (``ConnectionOpener``): on the direct path each has a thread, a socket and a
/// buffer of its own. All write through their receiver into the one partial file, at their own
/// offsets; their events arrive on one queue, so the plan, the machine and the checkpoints are
/// only touched here, in order.
///
/// Failures are bounded by the download's ``RetryPolicy``: a refused or failed segment goes back
/// to the plan for another connection; once ``RetryPolicy/opensConnection(afterFailures:)`` says
/// no, no new connection is opened, and when the last one stops the machine treats it as a
/// failed attempt (retry with backoff, from the checkpoint, which holds every finished range).
struct SegmentedTransfer {
    private let opener: ConnectionOpener
    private let part: PartialFile
    private let connections: Int
    private let retry: RetryPolicy
    private let progress: AsyncStream<DownloadEvent>.Continuation
    private let minimumSplit: Int64
    private let total: Int64

    private enum Outcome {
        case finished
        case anotherFile
        case failed(TransferError)
    }

    /// The receivers still running, so that cancellation can stop them from another thread.
    private final class Registry: Sendable {
        private let state = Mutex<(receivers: [Int: any SegmentReceiver], cancelled: Bool)>(([:], false))

        /// A receiver added once the download is cancelled is stopped at once.
        func add(_ receiver: any SegmentReceiver) {
            let cancelled = self.state.withLock { state in
                state.receivers[receiver.tag] = receiver
                return state.cancelled
            }
            if cancelled { receiver.stop() }
        }

        func remove(_ tag: Int) {
            self.state.withLock { _ = $0.receivers.removeValue(forKey: tag) }
        }

        func stopAll(cancelling: Bool) {
            let receivers = self.state.withLock { state in
                if cancelling { state.cancelled = true }
                return Array(state.receivers.values)
            }
            for receiver in receivers { receiver.stop() }
        }
    }

    init(
        total: Int64, opener: ConnectionOpener, part: PartialFile, connections: Int,
        minimumSplit: Int64, retry: RetryPolicy, progress: AsyncStream<DownloadEvent>.Continuation
    ) {
        self.total = total
        self.opener = opener
        self.part = part
        self.connections = max(connections, 1)
        self.retry = retry
        self.progress = progress
        self.minimumSplit = minimumSplit
    }

    /// Runs until every segment is written or the download must stop; returns the machine's next
    /// action. `primary` answered the first request (its head is accepted already) and sends its
    /// events, tagged 0, to `events`.
    func run(
        primary: any SegmentReceiver, events: ResponseEvent.Queue,
        machine: inout DownloadStateMachine, meter: inout ProgressMeter, writer: CheckpointWriter
    ) async -> DownloadStateMachine.Action {
        let registry = Registry()
        registry.add(primary)
        return await withTaskCancellationHandler {
            await self.drive(primary: primary, events: events, registry: registry, machine: &machine, meter: &meter, writer: writer)
        } onCancel: {
            registry.stopAll(cancelling: true)
        }
    }

    private func drive(
        primary: any SegmentReceiver, events: ResponseEvent.Queue, registry: Registry,
        machine: inout DownloadStateMachine, meter: inout ProgressMeter, writer: CheckpointWriter
    ) async -> DownloadStateMachine.Action {
        let clock = ContinuousClock()
        let origin = clock.now
        let prefix = machine.checkpoint.bytesReceived
        var plan = SegmentPlan(total: self.total, done: [0..<prefix] + machine.checkpoint.finishedRanges, minimumSplit: self.minimumSplit)
        var receivers: [Int: any SegmentReceiver] = [:]
        var nextTag = 1
        var outcome: Outcome?
        var failures = 0
        var lastError: TransferError?
        /// Connections wanted. A connection refused or failed before writing a byte lowers it to
        /// those still working: the server caps connections (as many CDNs do).
        var target = self.connections
        var wroteSomething: Set<Int> = []
        var refused: Set<Int> = []

        func stopAll() {
            for receiver in receivers.values { receiver.stop() }
        }
        func launch(_ range: Range<Int64>) {
            let tag = nextTag
            switch self.opener.open(machine.segmentRequest(range), tag: tag, part: self.part, events: events) {
            case .success(let receiver):
                nextTag += 1
                plan.assign(tag, range)
                receivers[tag] = receiver
                registry.add(receiver)
            case .failure(let error):
                // Not sendable the way the first request went; counted as a failed connection.
                lastError = error
                failures += 1
            }
        }

        // The first response already streams from the prefix: it keeps the first piece (the
        // missing bytes begin right after the prefix, so the first piece starts there).
        let pieces = plan.initialPieces(connections: self.connections)
        let first = pieces.first.map { $0.lowerBound == prefix ? $0 : prefix..<prefix } ?? prefix..<prefix
        receivers[0] = primary
        plan.assign(0, first)
        primary.accept(at: prefix, verifying: 0, upTo: first.upperBound)
        for piece in pieces.dropFirst().prefix(self.connections - 1) {
            launch(piece)
        }
        meter.begin(at: plan.bytesDone)

        while !receivers.isEmpty {
            let (tag, event) = await events.next()
            switch event {
            case .head(let status, let headers):
                guard let receiver = receivers[tag], let segment = plan.active[tag] else { continue }
                if outcome != nil || Task.isCancelled {
                    receiver.stop()
                    continue
                }
                switch machine.judgeSegment(status: status, headers: headers, range: segment.start..<segment.end) {
                case .accept(let end):
                    if end < segment.end { _ = plan.shrink(tag, to: end) }
                    receiver.accept(at: segment.start, verifying: 0, upTo: min(end, segment.end))
                case .changedFile:
                    outcome = .anotherFile
                    stopAll()
                case .refused(let error):
                    lastError = error
                    failures += 1
                    refused.insert(tag)
                    target = max(1, min(target, receivers.count - 1))
                    receiver.discard()
                }
            case .written(let count):
                guard plan.wrote(tag, count: count) else {
                    // A receiver wrote past its segment: a bug; stop rather than count it.
                    if outcome == nil { outcome = .failed(.connection(.other("internal: a segment overran its range"))) }
                    stopAll()
                    continue
                }
                failures = 0
                wroteSomething.insert(tag)
                meter.update(bytes: plan.bytesDone, total: self.total, continuation: self.progress)
                let action = machine.segmentsAdvanced(
                    prefix: plan.prefix, ranges: plan.rangesBeyondPrefix, now: origin.duration(to: clock.now))
                if case .checkpoint(let checkpoint) = action, let error = writer.submit(checkpoint) {
                    if outcome == nil { outcome = .failed(error) }
                    stopAll()
                }
            case .ended, .failed, .overlapMismatched:
                receivers[tag] = nil
                registry.remove(tag)
                let unfinished = (plan.active[tag]?.remaining ?? 0) > 0
                plan.release(tag)
                if case .ended = event, unfinished, !wroteSomething.contains(tag), !refused.contains(tag) {
                    // Ended cleanly without a byte of a segment still missing: no help, like a failure.
                    failures += 1
                }
                if case .failed(let error) = event {
                    if RetryPolicy.handling(of: error) == .disk {
                        if outcome == nil { outcome = .failed(error) }
                        stopAll()
                    } else if error != .cancelled {
                        lastError = error
                        failures += 1
                        if !wroteSomething.contains(tag) { target = max(1, min(target, receivers.count)) }
                    }
                }
                guard outcome == nil, !Task.isCancelled else { continue }
                if plan.isComplete {
                    if receivers.isEmpty { outcome = .finished }
                    continue
                }
                // Keep every connection busy: a piece nobody fetches, else half of the largest rest.
                while receivers.count < target, self.retry.opensConnection(afterFailures: failures) {
                    if let hole = plan.unassigned.first {
                        launch(hole)
                    } else if let (victim, point) = plan.splitCandidate(), let receiver = receivers[victim],
                              let end = await receiver.shrink(to: point), let freed = plan.shrink(victim, to: end)
                    {
                        launch(freed)
                    } else {
                        break
                    }
                }
                if receivers.isEmpty {
                    outcome = .failed(lastError ?? .connection(.other("no connection could fetch the remaining segments")))
                }
            }
        }
        if Task.isCancelled { return machine.pause() }
        switch outcome ?? .failed(lastError ?? .connection(.other("the segments stopped"))) {
        case .finished:
            return machine.segmentsFinished()
        case .anotherFile:
            return machine.segmentsSawAnotherFile()
        case .failed(let error):
            // The machine asks the retry policy whether this is a disk, final or retryable failure.
            if error == .unexpectedStatus(200) { machine.disableSegments() }
            return machine.transportFailed(error)
        }
    }
}
