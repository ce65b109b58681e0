import Dispatch
import Foundation

/// Runs `transform` on every element on all cores, and hands the results to `emit` one by one
/// in the elements' order, a batch at a time (so memory stays bounded and output starts early).
///
/// Why: `inspect` and `validate` of thousands of blobs are CPU-bound and each blob is
/// independent; the blobs of a batch are decoded in parallel, and their output is written in
/// order, so the result is the same as a sequential run, byte for byte.
package func orderedParallelMap<Element: Sendable, Output: Sendable>(
    _ elements: [Element],
    batchSize: Int = 256,
    transform: @escaping @Sendable (Element) -> Output,
    emit: (Output) -> Void
) {
    // One element, or one core: no threads to start.
    guard elements.count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else {
        for element in elements { emit(transform(element)) }
        return
    }
    var start = 0
    while start < elements.count {
        let batch = Array(elements[start..<min(start + batchSize, elements.count)])
        let slots = ResultSlots<Output>(count: batch.count)
        DispatchQueue.concurrentPerform(iterations: batch.count) { index in
            slots.store(transform(batch[index]), at: index)
        }
        for output in slots.take() { emit(output) }
        start += batch.count
    }
}

/// Result slots written by `concurrentPerform`'s iterations, each to its own index, and read
/// after it returned (which orders the writes before the reads). `@unchecked Sendable` because
/// no two iterations touch the same slot.
private final class ResultSlots<Output>: @unchecked Sendable {
    private var storage: UnsafeMutableBufferPointer<Output?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    func store(_ output: Output, at index: Int) {
        storage[index] = output
    }

    func take() -> [Output] {
        let outputs = storage.compactMap { $0 }
        assert(outputs.count == storage.count, "every iteration stores its result")
        return outputs
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
