/// Limits how many downloads run at once; waiting is cancellable.
actor AsyncSemaphore {
    private var available: Int
    private var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID = 0

    init(limit: Int) {
        self.available = max(limit, 1)
    }

    /// True once a slot is held; false when the waiting task was cancelled (no slot held then).
    func acquire() async -> Bool {
        if Task.isCancelled { return false }
        if self.available > 0 {
            self.available -= 1
            return true
        }
        let id = self.nextID
        self.nextID += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                self.waiters.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    func release() {
        if self.waiters.isEmpty {
            self.available += 1
        } else {
            self.waiters.removeFirst().continuation.resume(returning: true)
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return }
        self.waiters.remove(at: index).continuation.resume(returning: false)
    }
}
