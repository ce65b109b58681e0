import Foundation
import ResumeSystemCalls
import ResumeTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a pause while transfers run: `pause()` of every download task,
/// or the cancellation of an upload's task (its checkpoint stays as the last one written).
final class SignalPause {
    private let sources: [any DispatchSourceSignal]
    private let receivedSignal = ReceivedSignal()

    convenience init(tasks: [DownloadTask]) {
        self.init { for task in tasks { Task { _ = await task.pause() } } }
    }

    /// Calls `pause` on the first signal and on each after it.
    init(pause: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        let received = self.receivedSignal
        for number in [SIGINT, SIGTERM] {
            Terminal.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                received.set(number)
                pause()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    var received: Int32? { self.receivedSignal.value }

    func stop() {
        for source in self.sources { source.cancel() }
    }
}

private final class ReceivedSignal: @unchecked Sendable {
    // Written once from the signal queue, read after the task stopped.
    private let lock = NSLock()
    private var number: Int32?

    func set(_ value: Int32) { self.lock.withLock { if self.number == nil { self.number = value } } }
    var value: Int32? { self.lock.withLock { self.number } }
}
