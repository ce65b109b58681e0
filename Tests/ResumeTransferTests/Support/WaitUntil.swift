import Foundation
import Testing

/// Waits until `condition` holds, checking every 10 ms, for at most `bound`; records an issue
/// naming `what` when it never does. A test waits on what it means, never for a fixed time.
@discardableResult
func waitUntil(_ what: String, within bound: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + bound
    while clock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    if try condition() { return true }
    Issue.record("\(what): not within \(bound)", sourceLocation: sourceLocation)
    return false
}
