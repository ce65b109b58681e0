import Foundation
import ResumeDataCodec

/// How many values each object of a keyed archive expands to when decoded, worked out once for
/// the whole object graph (each object visited once, shared objects counted at every reference
/// as the decoder counts them, saturating at ``cap``): so that a task list whose tasks all refer
/// to one object that expands to millions of values is refused before any is decoded, instead
/// of decoding up to the per-decode limit once per task.
///
/// A reference back to an object being counted adds nothing: the decoder reports that cycle
/// itself, with its key path.
struct ArchiveExpansion {
    /// Counts above this are this.
    let cap: Int
    private let reader: KeyedArchiveObjectReader
    private var counted: [UInt64: Int] = [:]

    init(reader: KeyedArchiveObjectReader, cap: Int) {
        self.reader = reader
        self.cap = cap
    }

    /// The values the object at `uid` expands to (1 for a scalar or nil), at most ``cap``.
    mutating func count(_ uid: UInt64) -> Int {
        if let known = counted[uid] { return known }
        // Depth-first without recursion: a chain of 100,000 objects must not exhaust the stack.
        var stack: [(uid: UInt64, children: [UInt64], next: Int, total: Int)] = []
        var onStack: Set<UInt64> = []
        func push(_ uid: UInt64) {
            onStack.insert(uid)
            stack.append((uid, children(of: uid), 0, 1))
        }
        push(uid)
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].children.count {
                let child = stack[top].children[stack[top].next]
                stack[top].next += 1
                if let known = counted[child] {
                    stack[top].total = min(cap, stack[top].total + known)
                } else if onStack.contains(child) {
                    continue
                } else if stack[top].total >= cap {
                    continue
                } else {
                    push(child)
                }
                continue
            }
            let done = stack.removeLast()
            onStack.remove(done.uid)
            counted[done.uid] = done.total
            if let parent = stack.indices.last { stack[parent].total = min(cap, stack[parent].total + done.total) }
        }
        return counted[uid] ?? cap
    }

    /// The UIDs an object refers to (its fields and their arrays), not its class.
    private func children(of uid: UInt64) -> [UInt64] {
        guard uid != 0, case .dictionary(let fields)? = try? reader.raw(uid) else { return [] }
        var found: [UInt64] = []
        for key in fields.keys where key != "$class" {
            switch fields[key] {
            case .uid(let child)?: if child != 0 { found.append(child) }
            case .array(let elements)?:
                for case .uid(let child) in elements where child != 0 { found.append(child) }
            default: break
            }
        }
        return found
    }
}
