/// Why the session is waiting for a response; decides what the answer does.
enum CallPurpose: Sendable, Equatable {
    /// An application call (invoke, publish with ack, unsubscribe with ack).
    case user(CallID)
    /// The `#handshake` of the current connection.
    case handshake
    /// A `#subscribe` sent by the channel table.
    case subscribe(channel: String)
    /// `authenticate(token)`.
    case authenticate(CallID, token: String)
}

/// One invoke written to the socket and not answered yet.
struct PendingCall: Sendable, Equatable {
    /// The wire `cid` it was sent with.
    var cid: Int64
    /// The event name, for error messages.
    var event: String
    var purpose: CallPurpose
    /// When it times out; nil for calls without a timeout (`#subscribe`, as in the JS client).
    var deadline: MonotonicInstant?
}

/// The client's pending-response map (Protocol.md §5): a cid counter that is never reset (not
/// even across reconnects), and one entry per unanswered invoke with its own deadline. Each
/// entry leaves exactly once: answered (`resolve`), timed out (`expire`), or dropped with the
/// connection (`removeAll`). Responses with unknown rids find nothing and are ignored.
struct AckRegistry: Sendable {
    private(set) var nextCid: Int64 = 1
    /// By cid (bit pattern); cids are handed out in order, so no hashing (`SequentialKeyTable`).
    private var pending = SequentialKeyTable<PendingCall>()
    private var deadlines = DeadlineHeap()  // keyed by cid (bit pattern)

    /// Pending entries.
    var count: Int { pending.count }
    /// Entries in the deadline heap, live or stale; stays within a constant factor of `count`.
    var deadlineEntryCount: Int { deadlines.count }
    /// The earliest deadline of a pending entry.
    var nextDeadline: MonotonicInstant? { deadlines.top?.deadline }

    /// Takes the next cid (1, 2, 3, ... for the lifetime of the client).
    mutating func allocateCid() -> Int64 {
        let cid = nextCid
        nextCid = nextCid == Int64.max ? 1 : nextCid + 1
        return cid
    }

    mutating func register(_ call: PendingCall) {
        pending.insert(call, for: UInt64(bitPattern: call.cid))
        if let deadline = call.deadline { deadlines.insert(deadline, UInt64(bitPattern: call.cid)) }
    }

    /// The entry answered by `rid`, removed; nil for unknown, late or duplicate rids.
    mutating func resolve(rid: Int64) -> PendingCall? {
        guard let call = pending.removeValue(for: UInt64(bitPattern: rid)) else { return nil }
        dropStaleDeadlines()
        return call
    }

    /// Every entry whose deadline is at or before `now`, removed, earliest first.
    mutating func expire(now: MonotonicInstant) -> [PendingCall] {
        var expired: [PendingCall] = []
        while let top = deadlines.top, top.deadline <= now {
            deadlines.popTop()
            if let call = pending.value(for: top.key), call.deadline == top.deadline {
                _ = pending.removeValue(for: top.key)
                expired.append(call)
            }
        }
        dropStaleDeadlines()
        return expired
    }

    /// Removes the entries `matching` accepts, in cid order.
    mutating func remove(where matching: (PendingCall) -> Bool) -> [PendingCall] {
        let removed = pending.entries.map(\.value).filter(matching).sorted { $0.cid < $1.cid }
        for call in removed { _ = pending.removeValue(for: UInt64(bitPattern: call.cid)) }
        if !removed.isEmpty { dropStaleDeadlines() }
        return removed
    }

    /// Removes every entry (connection lost), in cid order.
    mutating func removeAll() -> [PendingCall] {
        let all = pending.entries.map(\.value).sorted { $0.cid < $1.cid }
        pending.removeAll()
        deadlines.removeAll()
        return all
    }

    private func isLive(_ entry: DeadlineHeap.Entry) -> Bool {
        pending.value(for: entry.key)?.deadline == entry.deadline
    }

    private mutating func dropStaleDeadlines() {
        while let top = deadlines.top, !isLive(top) { deadlines.popTop() }
        if deadlines.count > 2 * pending.count + 64 {
            let live = pending
            deadlines.rebuild { live.value(for: $0.key)?.deadline == $0.deadline }
        }
    }
}
