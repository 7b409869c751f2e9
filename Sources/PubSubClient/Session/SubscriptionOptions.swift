/// Options of one channel subscription (Protocol.md §8).
public struct SubscriptionOptions: Sendable, Hashable {
    /// Send `#subscribe` only while the client is authenticated (a client-side gate).
    public var waitForAuth: Bool
    /// Application data passed to the server's subscribe middleware (`data.data`).
    public var data: JSONValue?
    /// Local ordering hint: pending channels are subscribed highest priority first. Never sent.
    public var priority: Int

    /// Options; the defaults subscribe at once, with no data, at priority 0.
    public init(waitForAuth: Bool = false, data: JSONValue? = nil, priority: Int = 0) {
        self.waitForAuth = waitForAuth
        self.data = data
        self.priority = priority
    }
}

/// Channel states of Protocol.md §8. A channel the client does not track is `unsubscribed`.
///
/// This set is closed: socketcluster-client's three channel states, so an exhaustive `switch` is safe.
public enum ChannelState: String, Sendable, Hashable {
    /// A subscribe was sent (or waits for the connection) and the server has not answered yet.
    case pending
    /// The server confirmed the subscription; publications arrive.
    case subscribed
    /// Not subscribed: never asked, unsubscribed, or refused by the server.
    case unsubscribed
}
