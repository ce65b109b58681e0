import Foundation
import ResumeDataCodec

/// A bounded queue from one producing thread to one consuming thread. `scan` walks folders on
/// one thread while the files already listed are probed on all cores; the bound keeps the walk
/// from running far ahead and holding many paths.
final class BatchQueue<Element: Sendable>: @unchecked Sendable {
    // Every stored property is read and written only under `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits while the queue is full.
    func put(_ item: Element) {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
    }

    /// No more items will come.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }

    /// The next item, waiting for one; `nil` once the queue is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty, !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }
}
