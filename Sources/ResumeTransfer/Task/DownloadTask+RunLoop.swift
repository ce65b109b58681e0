import Foundation
import NIOCore
import ResumeDataCodec
import ResumeSystemCalls

/// The run loop: performs what the download state machine decides, one action at a time, and
/// feeds it the events of each response (through ``ResponseReceiver``, ``DirectReceiver`` or a
/// ``SegmentedTransfer``).
extension DownloadTask {
    func run(clients: HTTPClientPool) async -> DownloadState {
        self.setState(.running)
        // A run killed between writing a checkpoint and renaming it left the new one beside the
        // blob; only its own leftovers, of ended processes, so a running writer keeps its file.
        self.files.removeStaleTemporaries(of: self.resumeDataPath)
        var checkpoint: DownloadCheckpoint
        switch self.prepare() {
        case .success(.download(let value)):
            // What was ignored to get here matters only to a download that goes on.
            for warning in self.warnings { self.continuation.yield(.warning(warning)) }
            checkpoint = value
            // The caller's checksum wins; else the one the download was started with.
            if let expected = self.expectedSHA256 { checkpoint.expectedSHA256 = expected }
        case .success(.existing(let verdict)):
            if verdict == .unchecked {
                self.continuation.yield(.warning(
                    "\(self.destination) exists with no partial download beside it: left as it is, not checked against the server "
                        + "(an expected SHA-256, --sha256, would check it; remove it to download again, or rename it to \(BytePath(self.destination).lastName.text).part to continue it)"))
            }
            self.abandon(self.pendingCopy, part: nil)
            self.shared.withLock { $0.existingFile = verdict }
            self.setState(.completed)
            return .completed
        case .failure(let error):
            self.abandon(self.pendingCopy, part: nil)
            return self.stopped(failing: error)
        }
        let part: PartialFile
        do {
            part = try PartialFile(path: self.partialPath, calls: self.files.calls)
            let size = try part.size()
            // Finished ranges the partial file does not hold (it was cut, or is another file) are fetched again.
            checkpoint.finishedRanges = checkpoint.finishedRanges.filter { $0.upperBound <= size }
            // A pending copy brings the bytes the blob claims once the server agrees.
            if self.pendingCopy == nil, size < checkpoint.bytesReceived {
                // The blob promises bytes the file does not have; nothing before them can be trusted either.
                var fresh = checkpoint
                fresh.bytesReceived = 0
                fresh.finishedRanges = []
                return await self.loop(clients: clients, part: part, checkpoint: fresh)
            }
        } catch {
            self.abandon(self.pendingCopy, part: nil)
            return self.stopped(failing: error)
        }
        return await self.loop(clients: clients, part: part, checkpoint: checkpoint)
    }

    private func loop(clients: HTTPClientPool, part: PartialFile, checkpoint: DownloadCheckpoint) async -> DownloadState {
        // A blob already on disk may claim more than this run starts from (a partial file shorter
        // than it claims, a blob for another URL): the machine must replace it before cutting.
        let onDisk = self.files.contents(of: self.resumeDataPath)
            .flatMap { try? ResumeCheckpoint.decode($0).checkpoint.bytesReceived } ?? 0
        var machine = DownloadStateMachine(checkpoint: checkpoint, configuration: self.configuration.machine, claimedOnDisk: onDisk)
        var meter = ProgressMeter()
        var attempt = 0
        var pending = self.pendingCopy
        let writer = CheckpointWriter { [partialPath, resumeDataPath, files] checkpoint throws(TransferError) in
            try Self.writeCheckpoint(checkpoint, part: part, partialPath: partialPath, resumeDataPath: resumeDataPath, files: files)
        }
        var action = machine.start()
        while true {
            // Every step but sending writes or relies on the blob: no older checkpoint may still be
            // in flight then. A failed background write stops the download (the blob before it
            // is still valid), unless it is stopping with an error of its own already.
            switch action {
            case .sendRequest, .fail:
                _ = await writer.drain()
            default:
                if let error = await writer.drain() {
                    action = machine.diskFailed(error.diskMessage)
                    // Stopped already (paused, failed, done): the write's error is the outcome.
                    if case .ignored = action { return self.stopped(failing: error) }
                }
            }
            switch action {
            case .sendRequest(let plan):
                action = await self.send(
                    plan, clients: clients, machine: &machine, part: part, meter: &meter, writer: writer, pending: &pending)
            case .retry(let delay, let checkpoint):
                attempt += 1
                // Before the copy the partial file holds nothing a checkpoint could describe.
                if pending == nil { _ = self.saveCheckpoint(checkpoint, part: part) }
                self.continuation.yield(.retrying(attempt: attempt, delay: delay, reason: machine.lastRetryReason ?? .stalled))
                do {
                    try await Task.sleep(for: delay)
                    action = machine.retryTimerFired()
                } catch {
                    action = machine.pause()
                }
            case .finish(let length, let checkpoint):
                // A 416 that says the input's bytes are the whole file: they are copied first.
                var error = Self.adopt(&pending, upTo: length, into: part)
                if error == nil { error = self.complete(length: length, checkpoint: checkpoint, part: part) }
                action = machine.finished(error)
                if error == nil {
                    meter.finish(bytes: length, total: length, continuation: self.continuation)
                    self.setState(.completed)
                    return .completed
                }
            case .fail(let error, let checkpoint):
                if pending != nil {
                    self.abandon(pending, part: part)
                    return self.stopped(failing: error)
                }
                return self.stopped(failing: error, checkpoint: checkpoint, part: part)
            case .pause(let checkpoint):
                if pending != nil {
                    // The input and its blob continue it as they did before this run.
                    self.abandon(pending, part: part)
                    return self.stop(at: nil)
                }
                return self.stop(at: (checkpoint, part))
            case .receiveBody, .checkpoint, .none:
                // Only produced inside `send`; reaching here would be a machine bug, so stop safely.
                return self.stopped(failing: .connection(.other("internal: unexpected action \(action)")))
            case .ignored:
                // An event the machine ignored decides nothing; `follow` never returns one.
                return self.stopped(failing: .connection(.other("internal: unexpected action \(action)")))
            }
        }
    }

    private func send(
        _ plan: RequestPlan, clients: HTTPClientPool,
        machine: inout DownloadStateMachine, part: PartialFile, meter: inout ProgressMeter, writer: CheckpointWriter,
        pending: inout PendingCopy?
    ) async -> DownloadStateMachine.Action {
        if Task.isCancelled { return machine.pause() }
        let events = ResponseEvent.Queue()
        let opener = ConnectionOpener.choose(for: plan, configuration: self.configuration, settings: self.receiverSettings, clients: clients)
        let receiver: any SegmentReceiver
        switch opener.open(plan, tag: 0, part: part, events: events) {
        case .success(let opened): receiver = opened
        case .failure(let error): return machine.transportFailed(error)
        }
        if self.configuration.reportsHeads {
            self.continuation.yield(.requestHead(method: "GET", url: plan.url, headers: plan.headers))
        }
        return await withTaskCancellationHandler {
            await self.follow(
                events, receiver: receiver, opener: opener, machine: &machine, part: part, meter: &meter, writer: writer,
                pending: &pending)
        } onCancel: {
            receiver.stop()
        }
    }

    /// Feeds one response's events to the machine. Once the machine has decided (a redirect, a
    /// retry, a failed write), the response is stopped but still followed to its last event, which
    /// comes after every write for it finished: no write of this response can land after the
    /// next step (a truncation, a checkpoint, the rename) has begun.
    private func follow(
        _ events: ResponseEvent.Queue, receiver: any SegmentReceiver, opener: ConnectionOpener,
        machine: inout DownloadStateMachine, part: PartialFile, meter: inout ProgressMeter, writer: CheckpointWriter,
        pending: inout PendingCopy?
    ) async -> DownloadStateMachine.Action {
        let clock = ContinuousClock()
        let origin = clock.now
        var decided: DownloadStateMachine.Action?
        var position: Int64 = 0
        func decide(_ action: DownloadStateMachine.Action) {
            decided = action
            receiver.stop()
        }
        var finished = false
        while !finished {
            let (_, event) = await events.next()
            finished = event.isLast
            switch event {
            case .head(let status, let fields):
                guard decided == nil else { continue }
                if self.configuration.reportsHeads { self.continuation.yield(.responseHead(status: status, headers: fields)) }
                let action = machine.receivedResponse(status: status, headers: fields, now: .zero)
                guard case .receiveBody(let offset, let overlap, let restart) = action else {
                    decided = action
                    receiver.discard()
                    continue
                }
                // An older checkpoint landing after the truncation would describe bytes that are gone.
                if let error = await writer.drain() {
                    decide(machine.diskFailed(error.diskMessage))
                    continue
                }
                // The server continues after the input's bytes: now they are copied. A restart
                // (another file, the whole file again) needs none of them.
                let hadInput = pending != nil
                if restart == nil, let error = Self.adopt(&pending, upTo: offset, into: part) {
                    decide(machine.diskFailed(error.diskMessage))
                    continue
                }
                pending = nil
                let acceptsRanges = status == 206 || fields.value(of: "accept-ranges")?.lowercased().contains("bytes") == true
                // Either path's receiver can keep going as the first segment.
                let segments = (self.configuration.segmentConnections > 1 || !machine.checkpoint.finishedRanges.isEmpty) && overlap == 0
                    ? machine.beginSegments(acceptsRanges: acceptsRanges, now: origin.duration(to: clock.now)) : nil
                do {
                    if let restart {
                        let change = machine.takeValidatorChange()
                        if try part.size() > 0 || hadInput {
                            if let change { self.continuation.yield(.warning(change)) }
                            self.continuation.yield(.restarted(machine.lastRestartReason))
                        }
                        // First a blob that claims no more than will remain, then the cut: a crash in
                        // between leaves a blob that still tells the truth.
                        try self.writeCheckpoint(restart, part: part)
                        try part.truncate(to: offset)
                    } else if segments == nil {
                        if !machine.checkpoint.finishedRanges.isEmpty {
                            // One stream from the prefix: the cut below removes the other ranges,
                            // so first a blob that no longer counts them.
                            try self.writeCheckpoint(machine.dropFinishedRanges(), part: part)
                        }
                        try part.truncate(to: offset)
                    }
                    // Segments keep the bytes after the prefix: the finished ranges are among them.
                } catch {
                    decide(machine.diskFailed(error.diskMessage))
                    continue
                }
                if let total = segments {
                    // The segments open as the first response did: one opener for them all.
                    let transfer = SegmentedTransfer(
                        total: total, opener: opener, part: part,
                        connections: self.configuration.segmentConnections,
                        minimumSplit: max(self.configuration.minimumSegmentBytes, 1),
                        retry: machine.retryPolicy, progress: self.continuation)
                    return await transfer.run(primary: receiver, events: events, machine: &machine, meter: &meter, writer: writer)
                }
                position = offset
                meter.begin(at: offset)
                // The body starts `overlap` bytes before `offset`: those must repeat the file's own bytes.
                receiver.accept(at: offset - overlap, verifying: overlap)
            case .written(let count):
                guard decided == nil else { continue }
                position += count
                let next = machine.wroteBytes(Int(count), now: origin.duration(to: clock.now))
                meter.update(bytes: position, total: machine.checkpoint.totalLength, continuation: self.continuation)
                switch next {
                case .none:
                    break
                case .ignored:
                    // The machine no longer follows this response (cannot happen before it
                    // decided, which stops these calls); its last event is still awaited.
                    break
                case .checkpoint(let checkpoint):
                    if let error = writer.submit(checkpoint) { decide(machine.diskFailed(error.diskMessage)) }
                case .sendRequest, .receiveBody, .retry, .finish, .fail, .pause:
                    decide(next)
                }
            case .overlapMismatched:
                if decided == nil { decided = machine.overlapMismatched() }
            case .ended:
                if decided == nil { decided = Task.isCancelled ? machine.pause() : machine.bodyEnded() }
            case .failed(let error):
                guard decided == nil else { continue }
                // The machine asks the retry policy whether this is a disk, final or retryable failure.
                decided = Task.isCancelled ? machine.pause() : machine.transportFailed(error)
            }
        }
        if let decided { return decided }
        return Task.isCancelled ? machine.pause() : machine.transportFailed(.connection(.other("the response ended without a result")))
    }

    private var receiverSettings: ResponseReceiver.Settings {
        let connections = self.configuration.segmentConnections
        var settings = ResponseReceiver.Settings()
        settings.batchBytes = max(min(self.configuration.writeBatchBytes, (8 << 20) / connections), 1)
        if connections > 1 { settings.batchesInFlight = 1 }
        settings.rateLimit = self.configuration.maximumBytesPerSecond.map(SharedRatePacer.init(bytesPerSecond:))
        settings.responseTimeout = self.configuration.responseTimeout.timeAmount
        return settings
    }

    /// Copies the pending input's first `offset` bytes into `part` and clears `pending`; nil
    /// when that worked or nothing was pending, else the error (`pending` is kept, so the run's
    /// partial file, holding nothing but the input's bytes, is removed as it stops).
    static func adopt(_ pending: inout PendingCopy?, upTo offset: Int64, into part: PartialFile) -> TransferError? {
        guard let copy = pending else { return nil }
        // The machine continues from what the blob claims, never after it: bytes of the input
        // past that are unproven.
        guard offset <= copy.count else {
            return .disk("internal: the response continues at byte \(offset), after the \(copy.count) bytes taken from \(copy.source)")
        }
        do {
            try part.copyPrefix(of: copy.source, count: offset)
        } catch {
            return error
        }
        pending = nil
        return nil
    }

    /// A run that stops before its pending copy leaves nothing at the output: the partial file
    /// it made for the copy goes, and no checkpoint is written (the input and its blob still
    /// continue the download).
    func abandon(_ pending: PendingCopy?, part: PartialFile?) {
        guard pending != nil else { return }
        try? part?.close()
        self.files.remove(self.partialPath)
    }
}
