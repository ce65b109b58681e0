/// Finds the object a scalar was already written as, so the binary writer stores equal scalars once.
///
/// An open-addressing hash table (linear probing) of object numbers, 8 bytes a slot: the 32-bit
/// hash of the object's encoding and its number. The table holds no keys; the caller compares a
/// candidate by its encoded bytes, already in the output, which are equal exactly when the
/// scalars are the same object (same type, same exact value). Hand-written rather than a
/// `Dictionary` of the scalars: that kept a copy of every key and its own hash per entry, about
/// 50 bytes per object, the largest part of the writer's memory for a big file.
struct BinaryPropertyListUniquingIndex {
    /// Per slot: 0 if empty, else the hash in the high 32 bits and the object number plus one in
    /// the low 32.
    private var slots: [UInt64]
    private(set) var count = 0

    /// The largest object number the index holds.
    static let maximumNumber = Int(UInt32.max) - 1

    /// - Parameter capacity: slots to start with, rounded up to a power of two (at least 16).
    init(capacity: Int = 16) {
        var size = 16
        while size < capacity { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
    }

    /// The number of slots (a power of two); the table doubles before it is three-quarters full.
    var capacity: Int { slots.count }

    /// The outcome of ``lookup(hash:matches:)``.
    enum Lookup: Equatable {
        /// An object with this hash that `matches` accepted.
        case found(Int)
        /// No such object; ``insert(_:hash:at:)`` takes this slot.
        case missing(slot: Int)
    }

    /// The object whose hash is `hash` and that `matches` accepts (called only for objects with
    /// this hash), or where to insert one.
    func lookup(hash: UInt32, matches: (Int) throws -> Bool) rethrows -> Lookup {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .missing(slot: slot) }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                let number = Int(UInt32(truncatingIfNeeded: entry)) - 1
                if try matches(number) { return .found(number) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds object `number` (at most ``maximumNumber``) with `hash` in the slot ``lookup(hash:matches:)``
    /// returned, with nothing inserted in between.
    mutating func insert(_ number: Int, hash: UInt32, at slot: Int) {
        precondition(number >= 0 && number <= Self.maximumNumber && slots[slot] == 0, "an object number the index cannot hold, or a taken slot")
        slots[slot] = UInt64(hash) << 32 | UInt64(number + 1)
        count += 1
        if count * 4 > slots.count * 3 { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            var slot = Int(entry >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
