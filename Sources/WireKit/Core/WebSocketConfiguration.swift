/// Limits, timeouts and role options of one WebSocket connection.
package struct WebSocketConfiguration: Sendable, Hashable {
    /// Largest frame payload accepted, in bytes. Larger frames fail the connection with 1009.
    package var maxFrameSize: Int = 16 << 20
    /// Largest message (all fragments together) accepted, in bytes; larger fails with 1009.
    package var maxMessageSize: Int = 16 << 20
    /// Largest HTTP head (status/request line and headers) accepted during the handshake, in bytes.
    package var maxHandshakeHeadSize: Int = 16 << 10
    /// Client role: how much of a rejected handshake's body is kept, in bytes.
    package var maxRejectionBodySize: Int = 64 << 10
    /// How long the opening handshake may take once started; `nil` waits forever.
    package var handshakeTimeout: Duration? = .seconds(10)
    /// How long to wait for the peer's close frame after ours, and (client role) for the server
    /// to close TCP after the close handshake, before closing TCP ourselves.
    package var closeTimeout: Duration = .seconds(5)
    /// Optional keepalive: ping a quiet connection and fail it when nothing comes back.
    package var keepalive: WebSocketKeepalive?
    /// Server role: subprotocols supported, in preference order; the first one the client also
    /// offered is selected.
    package var subprotocols: [String] = []
    /// Server role: extra header fields sent with the 101 response.
    package var responseHeaders: HTTPHeaders = HTTPHeaders()
    /// permessage-deflate (RFC 7692): a client offers it, a server accepts an offer; `nil`: off.
    package var perMessageDeflate: PerMessageDeflateOptions?
    /// How long a message may take to arrive once its first frame header did; `nil` (the
    /// default) waits as long as the connection lives. At the deadline the connection fails
    /// with 1008 (policy violation) and `.timedOut` (timeout kind `.message`). Checked per read, so
    /// a message delivered within one read never arms it.
    package var messageTimeout: Duration?
    /// Shared bound on the storage of unfinished messages over 64 KiB (see
    /// `PartialMessageBudget`); `nil` (the default): only `maxMessageSize` bounds them.
    package var partialMessageBudget: PartialMessageBudget?

    /// The defaults: 16 MiB frames and messages, 16 KiB heads, 64 KiB rejection bodies,
    /// 10 s handshake, 5 s close wait, no keepalive, no message deadline, no shared budget.
    package init() {}
}

/// Keepalive settings: after `interval` without receiving anything, send a ping; if nothing at
/// all arrives within `timeout` after it, fail the connection (close code 1006, `.timedOut`).
public struct WebSocketKeepalive: Sendable, Hashable {
    /// Quiet time before a keepalive ping is sent.
    public var interval: Duration
    /// How long to wait for any incoming byte after the keepalive ping.
    public var timeout: Duration

    /// Pings after `interval` of silence and gives up `timeout` later.
    public init(interval: Duration, timeout: Duration) {
        self.interval = interval
        self.timeout = timeout
    }
}
