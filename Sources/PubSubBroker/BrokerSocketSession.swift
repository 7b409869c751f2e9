@_spi(Cores) import MonotonicTime
import Foundation

/// The per-connection state of the sans-I/O broker: handshake phase, authentication, channel
/// subscriptions, liveness deadlines, the server's own invoke ids and an optional outbound batch.
/// `BrokerCore` drives it; it owns no socket, thread or clock.
struct BrokerSocketSession {
    enum Phase {
        /// WebSocket open, `#handshake` not yet processed (strict handshake applies).
        case connecting
        /// Handshake answered.
        case open
    }

    /// A server → client invoke waiting for its `rid`.
    struct PendingInvoke {
        var token: UInt64
        var event: String
        var deadline: MonotonicInstant
    }

    /// A client subscribe or publish held for authorization.
    struct PendingAuthorization {
        var request: BrokerAuthorizationRequest
        var cid: BrokerCallID?
    }

    let connection: BrokerConnectionID
    let id: String
    var phase: Phase = .connecting
    /// Whether the first handshake completed (the socket counts as connected).
    var hasConnected = false
    var authToken: [String: JSONValue]?
    var signedAuthToken: String?
    /// Subscribed channels in subscription order.
    private(set) var subscriptionList = SubscriptionList()
    /// The next `cid` for a server invoke; starts at 1 per connection.
    var nextCallID: Int64 = 1
    var pendingInvokes: [Int64: PendingInvoke] = [:]
    /// Packets held back by `startBatch`, serialized (UTF-8); `nil` when not batching.
    var batch: [[UInt8]]?
    var nextPingAt: MonotonicInstant?
    var pongDeadline: MonotonicInstant?
    var handshakeDeadline: MonotonicInstant?
    /// Inbound packets not yet processed, last one first (they wait while an authorization is
    /// pending).
    var pendingItems: [InboundItem] = []
    /// The subscribe or publish waiting for the application's decision.
    var awaitingAuthorization: PendingAuthorization?
    /// The deadline entered in the core's deadline heap (entries that differ are stale).
    var reportedDeadline: MonotonicInstant?

    init(connection: BrokerConnectionID, id: String) {
        self.connection = connection
        self.id = id
    }

    /// The next inbound packet to process, unless an authorization is pending (then `nil`).
    /// Mutating so that the core reaches it through the sessions dictionary in place, without
    /// copying the session.
    mutating func takeNextPendingItem() -> InboundItem? {
        guard awaitingAuthorization == nil else { return nil }
        return pendingItems.popLast()
    }

    /// Whether a `#publish` invoke read without a tree may be routed now: the socket is open and
    /// nothing of its own waits before it. Mutating only so that the core reaches it in place.
    mutating func isReadyForRawPublish() -> Bool {
        phase == .open && pendingItems.isEmpty && awaitingAuthorization == nil
    }

    var info: BrokerSocketInfo {
        BrokerSocketInfo(id: id, authToken: authToken, signedAuthToken: signedAuthToken)
    }

    /// The earliest time at which `BrokerCore.timeElapsed` has something to do here.
    var nextDeadline: MonotonicInstant? {
        var earliest: MonotonicInstant?
        func consider(_ date: MonotonicInstant?) {
            guard let date else { return }
            if let current = earliest, current <= date { return }
            earliest = date
        }
        consider(nextPingAt)
        consider(pongDeadline)
        if phase == .connecting { consider(handshakeDeadline) }
        for pending in pendingInvokes.values { consider(pending.deadline) }
        return earliest
    }

    /// Subscribed channels in subscription order.
    var subscriptions: [String] { subscriptionList.inOrder }

    func isSubscribed(to channel: String) -> Bool { subscriptionList.contains(channel) }

    /// Records a subscription; returns false when it already existed.
    @discardableResult
    mutating func addSubscription(_ channel: String) -> Bool {
        subscriptionList.insert(channel)
    }

    /// Forgets a subscription; returns false when there was none.
    @discardableResult
    mutating func removeSubscription(_ channel: String) -> Bool {
        subscriptionList.remove(channel)
    }

    /// Queues a serialized packet: into the batch when batching, else as a frame to send now.
    mutating func write(_ packet: [UInt8], kind: PacketMessageKind, into actions: inout ActionQueue<BrokerAction>) {
        if batch != nil {
            batch?.append(packet)
        } else {
            switch kind {
            case .text: actions.append(.send(connection, packet))
            case .binary: actions.append(.sendBinary(connection, packet))
            }
        }
    }

    /// Whether the current token carries an `exp` claim that has passed at `now`, a wall-clock
    /// time (the server's live check: `Date.now() > exp * 1000`).
    func authTokenExpired(at now: Date) -> Bool {
        guard let exp = authToken?["exp"]?.doubleValue else { return false }
        return now.timeIntervalSince1970 * 1_000 > exp * 1_000
    }
}
