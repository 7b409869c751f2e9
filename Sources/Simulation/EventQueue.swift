@_spi(Cores) import MonotonicTime

/// The simulator's pending events, earliest first; events due at the same instant come out in
/// the order they were scheduled, so a run is a pure function of its seed.
struct EventQueue<Event> {
    private struct Entry {
        var time: MonotonicInstant
        var order: UInt64
        var event: Event

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// When the earliest event is due.
    var nextTime: MonotonicInstant? { heap.first?.time }

    mutating func schedule(_ event: Event, at time: MonotonicInstant) {
        scheduled += 1
        heap.append(Entry(time: time, order: scheduled, event: event))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event.
    mutating func pop() -> (time: MonotonicInstant, event: Event)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return (top.time, top.event)
    }
}
