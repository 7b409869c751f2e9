/// The client's channel map (Protocol.md §8). A channel is in the table only while `pending` or
/// `subscribed`; leaving the table means `unsubscribed`. At most one `#subscribe` is in flight
/// per channel. A channel that was subscribed before and fails to resubscribe after a reconnect
/// stays pending for the next connection instead of being forgotten.
struct ChannelTable: Sendable {
    struct Channel: Sendable, Equatable {
        var name: String
        var state: ChannelState
        var options: SubscriptionOptions
        /// The cid of the `#subscribe` in flight, if any.
        var subscribeCid: Int64?
        /// Subscribed at least once: a later failure keeps it pending rather than dropping it.
        var wasSubscribed: Bool
        /// Insertion order, the tie-breaker among equal priorities.
        var order: UInt64
        /// `subscribeAck` calls waiting for the outcome of the current attempt.
        var waiters: [CallID]
    }

    /// What a failed `#subscribe` did to its channel.
    enum FailureOutcome: Equatable {
        /// The response was for an attempt that no longer matters (channel gone or re-sent).
        case ignored
        /// The channel left the table (first subscribe refused, as in the JS client).
        case removed(Channel)
        /// The channel stays pending and is retried on the next connection.
        case keptPending(Channel)
    }

    private var channels: [String: Channel] = [:]
    private var nextOrder: UInt64 = 0

    var count: Int { channels.count }

    func channel(_ name: String) -> Channel? { channels[name] }

    func state(of name: String) -> ChannelState { channels[name]?.state ?? .unsubscribed }

    /// Channel names, in insertion order; pending ones only when `includePending`.
    func names(includePending: Bool) -> [String] {
        channels.values
            .filter { includePending || $0.state == .subscribed }
            .sorted { $0.order < $1.order }
            .map(\.name)
    }

    /// Adds `name` as pending, or replaces the options of the existing channel.
    /// Returns true when the channel is new.
    @discardableResult
    mutating func add(_ name: String, options: SubscriptionOptions) -> Bool {
        if var existing = channels[name] {
            existing.options = options
            channels[name] = existing
            return false
        }
        channels[name] = Channel(
            name: name, state: .pending, options: options, subscribeCid: nil,
            wasSubscribed: false, order: nextOrder, waiters: [])
        nextOrder += 1
        return true
    }

    mutating func addWaiter(_ call: CallID, to name: String) {
        channels[name]?.waiters.append(call)
    }

    /// Takes `call` off `name`'s waiters; false when it no longer waits there (it completed).
    mutating func removeWaiter(_ call: CallID, from name: String) -> Bool {
        guard let index = channels[name]?.waiters.firstIndex(of: call) else { return false }
        channels[name]?.waiters.remove(at: index)
        return true
    }

    /// Pending channels with no `#subscribe` in flight whose auth requirement is met,
    /// highest priority first, then in insertion order.
    func readyToSubscribe(isAuthenticated: Bool) -> [Channel] {
        channels.values
            .filter { $0.state == .pending && $0.subscribeCid == nil && (!$0.options.waitForAuth || isAuthenticated) }
            .sorted { ($0.options.priority, -Int64(truncatingIfNeeded: $0.order)) > ($1.options.priority, -Int64(truncatingIfNeeded: $1.order)) }
    }

    mutating func markSubscribeSent(_ name: String, cid: Int64) {
        channels[name]?.subscribeCid = cid
    }

    /// The `#subscribe` with `cid` was never sent (its batch was cancelled): nothing is in flight.
    mutating func markSubscribeCancelled(_ name: String, cid: Int64) {
        if channels[name]?.subscribeCid == cid { channels[name]?.subscribeCid = nil }
    }

    /// The channel moves to subscribed if `cid` is its in-flight request; returns it with the
    /// waiters that were attached (now cleared), or nil when the response is stale.
    mutating func subscribeSucceeded(_ name: String, cid: Int64) -> Channel? {
        guard var channel = channels[name], channel.subscribeCid == cid else { return nil }
        let answered = channel
        channel.state = .subscribed
        channel.subscribeCid = nil
        channel.wasSubscribed = true
        channel.waiters = []
        channels[name] = channel
        return answered
    }

    /// Applies a refused `#subscribe`: a first subscribe is dropped (JS behaviour), a resubscribe
    /// or a `waitForAuth` channel while unauthenticated stays pending.
    mutating func subscribeFailed(_ name: String, cid: Int64, isAuthenticated: Bool) -> FailureOutcome {
        guard var channel = channels[name], channel.subscribeCid == cid else { return .ignored }
        let answered = channel
        channel.subscribeCid = nil
        channel.waiters = []
        if channel.wasSubscribed || (channel.options.waitForAuth && !isAuthenticated) {
            channels[name] = channel
            return .keptPending(answered)
        }
        channels.removeValue(forKey: name)
        return .removed(answered)
    }

    /// Removes a channel (unsubscribe, kick out); returns what it was.
    mutating func remove(_ name: String) -> Channel? {
        channels.removeValue(forKey: name)
    }

    /// The connection ended: every channel becomes pending with nothing in flight. Returns the
    /// channels as they were, in insertion order, so the caller can report state changes and
    /// fail waiters.
    mutating func suspendAll() -> [Channel] {
        let before = channels.values.sorted { $0.order < $1.order }
        for name in channels.keys {
            channels[name]?.state = .pending
            channels[name]?.subscribeCid = nil
            channels[name]?.waiters = []
        }
        return before
    }
}
