extension Array {
    /// Puts the element at `order[k]` at position `k` for every `k`, in place, by following each
    /// cycle of the permutation with swaps. A ledger's tasks are sorted through their keys and
    /// then moved like this, so the peak holds one array of whole tasks, not two (`order.map`
    /// made a second one, about 5 MiB for 10,000 tasks, while the first was still alive).
    /// `order` must be a permutation of the indices, as `indices.sorted(by:)` returns.
    mutating func rearrange(by order: [Int]) {
        precondition(order.count == self.count, "rearrange(by:) takes a permutation of the indices")
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var current = start
            while true {
                placed[current] = true
                let next = order[current]
                if next == start { break }
                self.swapAt(current, next)
                current = next
            }
        }
    }
}
