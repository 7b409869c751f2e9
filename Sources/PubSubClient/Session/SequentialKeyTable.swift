/// A table for keys handed out in increasing order (call numbers, cids) and mostly removed in
/// about that order: a window of slots indexed by `key - base` holds the recent entries, so
/// inserting, finding and removing one costs no hashing.
///
/// A key that does not extend the window (out of order, or after a wrap) goes to a dictionary,
/// and so does an entry that stays while many later ones come and go (a call without a timeout
/// that is never answered): the window is kept within a constant factor of the entries it holds,
/// so memory follows the live entries, not the keys handed out since the oldest.
struct SequentialKeyTable<Value> {
    /// Slots for keys `base ..< base + slots.count - head`, from `slots[head]`; nil once removed.
    private var slots: [Value?] = []
    private var head = 0
    private var base: UInt64 = 0
    /// Live entries in `slots`.
    private var windowCount = 0
    private var overflow: [UInt64: Value] = [:]

    /// Live entries.
    var count: Int { windowCount + overflow.count }
    var isEmpty: Bool { count == 0 }
    /// Slots the window's array holds, removed ones included (what its memory follows).
    var slotCapacityInUse: Int { slots.count }

    /// Adds `value` for `key`, a key not in the table.
    mutating func insert(_ value: Value, for key: UInt64) {
        if windowCount == 0 {
            // An empty window starts at any key.
            slots.removeAll(keepingCapacity: true)
            head = 0
            base = key
        }
        if key &- base == UInt64(slots.count - head), key >= base {
            slots.append(value)
            windowCount += 1
        } else {
            overflow[key] = value
        }
    }

    /// The value for `key`.
    func value(for key: UInt64) -> Value? {
        if let index = slotIndex(of: key) { return slots[index] }
        return overflow.isEmpty ? nil : overflow[key]
    }

    /// Removes and returns the value for `key`.
    mutating func removeValue(for key: UInt64) -> Value? {
        if let index = slotIndex(of: key), let value = slots[index].take() {
            windowCount -= 1
            trim()
            return value
        }
        return overflow.isEmpty ? nil : overflow.removeValue(forKey: key)
    }

    /// Every entry, in no particular order.
    var entries: [(key: UInt64, value: Value)] {
        var all: [(key: UInt64, value: Value)] = []
        all.reserveCapacity(count)
        for index in head..<slots.count {
            if let value = slots[index] { all.append((base &+ UInt64(index - head), value)) }
        }
        for (key, value) in overflow { all.append((key, value)) }
        return all
    }

    /// Removes every entry.
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        head = 0
        windowCount = 0
        overflow.removeAll()
    }

    private func slotIndex(of key: UInt64) -> Int? {
        guard key >= base else { return nil }
        let offset = key - base
        guard offset < UInt64(slots.count - head) else { return nil }
        return head + Int(offset)
    }

    /// Drops removed slots from the front, moves a lone old entry that holds a sparse window
    /// open to `overflow`, and reclaims the dropped front once it is half the array.
    private mutating func trim() {
        while head < slots.count {
            if slots[head] != nil {
                // Sparse: the window spans more than twice its entries (and some slack).
                guard slots.count - head > 2 * windowCount + 32, let value = slots[head].take() else { break }
                overflow[base] = value
                windowCount -= 1
            }
            head += 1
            base &+= 1
        }
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > slots.count {
            slots.removeSubrange(0..<head)
            head = 0
        }
    }
}

extension SequentialKeyTable: Sendable where Value: Sendable {}
