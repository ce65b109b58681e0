import Foundation
import ResumeSystemCalls

/// The first Ctrl-C (SIGINT) during `scan` asks the scan to stop, so that the report of what
/// was found so far is printed; it then gives SIGINT its default action back, so a second
/// Ctrl-C ends the process at once, as a user pressing it twice expects.
final class ScanInterruption: @unchecked Sendable {
    // `received` is read and written only under `lock`; `source` only on the creating thread.
    private let lock = NSLock()
    private var received = false
    private var source: (any DispatchSourceSignal)?

    init() {
        Terminal.ignore(signal: SIGINT)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            self?.lock.withLock { self?.received = true }
            Terminal.restoreDefault(signal: SIGINT)
        }
        source.resume()
        self.source = source
    }

    /// Whether Ctrl-C was pressed.
    var wasInterrupted: Bool { lock.withLock { received } }

    /// SIGINT as before the scan.
    func stop() {
        source?.cancel()
        source = nil
        Terminal.restoreDefault(signal: SIGINT)
    }
}
