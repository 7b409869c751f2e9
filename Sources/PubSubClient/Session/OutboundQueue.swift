/// Packets made while the connection is not open (Protocol.md §5): kept in FIFO order,
/// bounded in count and bytes, each with the deadline of its ack timeout counted from when the
/// call was made. Flushed after the handshake, after the pending `#subscribe`s.
struct OutboundQueue: Sendable {
    enum Item: Sendable, Equatable {
        case transmit(event: String, data: OutboundPayload)
        case invoke(event: String, data: OutboundPayload, purpose: CallPurpose)

        var event: String {
            switch self {
            case .transmit(let event, _), .invoke(let event, _, _): return event
            }
        }
    }

    struct Entry: Sendable, Equatable {
        var item: Item
        /// Ack-timeout deadline, from when the call was made.
        var deadline: MonotonicInstant?
        /// Serialized size estimate in bytes, for the byte bound.
        var bytes: Int
    }

    /// Most entries kept at once.
    let maxMessages: Int
    /// Most bytes (serialized estimate) kept at once.
    let maxBytes: Int

    private(set) var entries: [Entry] = []
    private(set) var bytes: Int = 0
    private(set) var nextDeadline: MonotonicInstant?

    init(maxMessages: Int, maxBytes: Int) {
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Appends `entry`, or throws `outboundQueueFull` when a bound would be exceeded.
    mutating func enqueue(_ entry: Entry) throws(PubSubError) {
        guard entries.count < maxMessages, entry.bytes <= maxBytes - bytes else {
            throw .outboundQueueFull(event: entry.item.event, maxMessages: maxMessages, maxBytes: maxBytes)
        }
        entries.append(entry)
        bytes += entry.bytes
        if let deadline = entry.deadline, nextDeadline.map({ deadline < $0 }) ?? true { nextDeadline = deadline }
    }

    /// Removes and returns, in order, the entries whose deadline is at or before `now`.
    mutating func expire(now: MonotonicInstant) -> [Entry] {
        guard let next = nextDeadline, next <= now else { return [] }
        var expired: [Entry] = []
        var kept: [Entry] = []
        for entry in entries {
            if let deadline = entry.deadline, deadline <= now { expired.append(entry) } else { kept.append(entry) }
        }
        replace(with: kept)
        return expired
    }

    /// Removes and returns the entries `matching` accepts, in order.
    mutating func remove(where matching: (Entry) -> Bool) -> [Entry] {
        let removed = entries.filter(matching)
        if !removed.isEmpty { replace(with: entries.filter { !matching($0) }) }
        return removed
    }

    /// Removes and returns everything, in order.
    mutating func drain() -> [Entry] {
        let all = entries
        replace(with: [])
        return all
    }

    private mutating func replace(with kept: [Entry]) {
        entries = kept
        bytes = kept.reduce(0) { $0 + $1.bytes }
        nextDeadline = kept.compactMap(\.deadline).min()
    }
}
