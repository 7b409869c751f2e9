/// A socket that had completed its handshake closed: what `PubSubBroker.onDisconnection`
/// handlers receive. New fields may be added in minor releases.
public struct BrokerDisconnection: Sendable {
    /// The socket that closed (its `id` and last state; it is no longer open).
    public var socket: BrokerSocket
    /// The close code: the peer's, the broker's own (e.g. 1008 for a slow consumer), or 1006
    /// when the connection ended without a close frame.
    public var code: SocketClusterCloseCode
    /// The close reason (empty when there was none). It may be the peer's text: escape it
    /// before it meets a terminal.
    public var reason: String
}
