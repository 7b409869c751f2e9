/// Settings of a client `WebSocket`.
public struct WebSocketOptions: Sendable {
    /// Extra header fields for the upgrade request (Authorization, Cookie, ...).
    public var headers: HTTPHeaders = HTTPHeaders()
    /// Sent as the `Origin` header when set.
    public var origin: String?
    /// Subprotocols offered, in preference order.
    public var subprotocols: [String] = []
    /// Limit for name resolution plus the TCP (and TLS) connect.
    public var connectTimeout: Duration = .seconds(10)
    /// Limit for the HTTP upgrade once connected.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Largest message accepted, in bytes; a larger one fails the connection with 1009.
    public var maxMessageSize: Int = 16 << 20
    /// Largest single frame accepted, in bytes (`nil`: same as `maxMessageSize`).
    public var maxFrameSize: Int?
    /// How long `close` waits for the peer's close frame, then for the server to close TCP.
    public var closeTimeout: Duration = .seconds(5)
    /// Optional keepalive pings that fail a silent connection.
    public var keepalive: WebSocketKeepalive?
    /// How long a message may take to arrive once its first frame header did; at the deadline
    /// the connection fails with 1008 (policy violation) and `.timedOut` (timeout kind `.message`).
    /// `nil` (the default): no deadline, as in browsers (a server's slow message is bounded by
    /// `maxMessageSize` and `keepalive`).
    public var messageTimeout: Duration?
    /// How long `ping()` waits for its pong by default.
    public var pingTimeout: Duration = .seconds(10)
    /// Buffered outgoing bytes above which the async `send` waits for the socket to drain.
    public var sendHighWaterMark: Int = 1 << 20
    /// Buffered outgoing bytes beyond which the non-async `write` throws `.sendBufferFull`
    /// instead of buffering more (a message always fits an empty buffer). Default 16 MiB;
    /// `Int.max` for none. Everything waiting counts: messages, pongs, close frames. While more
    /// than this waits, the connection also stops reading from the server until all of it was
    /// handed to the kernel. Pongs never pile up: only the latest ping is answered while an
    /// earlier pong still waits.
    public var writeLimit: Int = 16 << 20
    /// Bytes of received messages waiting unread in `messages` above which the connection stops
    /// reading the socket, so TCP pushes back on the peer (Python `websockets`' `max_queue`).
    /// Each message counts its payload plus 64 bytes. Messages handed to `onText`/`onBinary` are
    /// not counted: pause those with `pauseReading()`.
    public var receiveHighWaterMark: Int = 1 << 20
    /// Reading resumes once the unread bytes in `messages` fell to this.
    public var receiveLowWaterMark: Int = 256 << 10
    /// Makes the transport; replace it to add TLS or a custom stream.
    public var transportFactory: WebSocketTransportFactory = .default
    /// An HTTP proxy to tunnel through with CONNECT (`ws://` and `wss://`); see `HTTPProxy`.
    public var proxy: HTTPProxy?
    /// When `proxy` is nil: use the proxy the environment names (`https_proxy`, `http_proxy`,
    /// `no_proxy`; see `HTTPProxy.fromEnvironment`). Off by default.
    public var proxyFromEnvironment: Bool = false
    /// permessage-deflate (RFC 7692), offered by default (like browsers); `nil` does not offer it.
    public var perMessageDeflate: PerMessageDeflateOptions? = PerMessageDeflateOptions()
    /// Where this connection's log records go (connecting, its outcome, handshake rejections,
    /// protocol violations, TLS failures, limits hit); `.off` by default. See <doc:Logging>.
    public var logSink: LogSink = .off

    /// Options with the defaults documented on each property; change them one by one
    /// (`var options = WebSocketOptions(); options.maxMessageSize = 1 << 20`).
    public init() {}

    /// The state machine's configuration for these options.
    var configuration: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.maxFrameSize = maxFrameSize ?? maxMessageSize
        configuration.maxMessageSize = maxMessageSize
        configuration.handshakeTimeout = handshakeTimeout
        configuration.closeTimeout = closeTimeout
        configuration.keepalive = keepalive
        configuration.perMessageDeflate = perMessageDeflate
        configuration.messageTimeout = messageTimeout
        return configuration
    }
}
