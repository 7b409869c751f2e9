/// A binary min-heap of (deadline, key) pairs. Removal is lazy: owners drop stale tops and call
/// `rebuild` when stale entries outnumber live ones, so the heap stays proportional to the live set.
/// The timer queue of the client session's ack registry and of the broker core.
///
/// Keys are plain 64-bit numbers (a cid, a connection number) rather than a generic parameter:
/// this module's code is not specialized for its callers' types (`package` declarations are not
/// inlined across modules), and unspecialized generic code boxes every entry it swaps, which
/// cost the client more than a dozen heap allocations per invoke.
package struct DeadlineHeap: Sendable {
    package struct Entry: Sendable {
        package var deadline: MonotonicInstant
        package var key: UInt64
    }

    package private(set) var entries: [Entry] = []

    package init() {}

    package var count: Int { entries.count }
    package var top: Entry? { entries.first }

    package mutating func insert(_ deadline: MonotonicInstant, _ key: UInt64) {
        entries.append(Entry(deadline: deadline, key: key))
        siftUp(entries.count - 1)
    }

    @discardableResult
    package mutating func popTop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let last = entries.removeLast()
        if !entries.isEmpty { siftDown(0) }
        return last
    }

    /// Keeps only the entries `isLive` accepts, in heap order again.
    package mutating func rebuild(keeping isLive: (Entry) -> Bool) {
        entries.removeAll { !isLive($0) }
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    package mutating func removeAll() { entries.removeAll(keepingCapacity: false) }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            if entries[child].deadline < entries[parent].deadline {
                entries.swapAt(child, parent)
                child = parent
            } else {
                return
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            if left >= entries.count { return }
            var smallest = left
            let right = left + 1
            if right < entries.count && entries[right].deadline < entries[left].deadline { smallest = right }
            if entries[smallest].deadline < entries[parent].deadline {
                entries.swapAt(smallest, parent)
                parent = smallest
            } else {
                return
            }
        }
    }
}
