/// Settings of a client `WebSocket`.
public struct WebSocketOptions: Sendable {
    /// Extra header fields for the upgrade request (Authorization, Cookie, ...).
    public var headers: HTTPHeaders
    /// Sent as the `Origin` header when set.
    public var origin: String?
    /// Subprotocols offered, in preference order.
    public var subprotocols: [String]
    /// Limit for name resolution plus the TCP (and TLS) connect.
    public var connectTimeout: Duration
    /// Limit for the HTTP upgrade once connected.
    public var handshakeTimeout: Duration
    /// Largest message accepted, in bytes; a larger one fails the connection with 1009.
    public var maxMessageSize: Int
    /// Largest single frame accepted, in bytes (`nil`: same as `maxMessageSize`).
    public var maxFrameSize: Int?
    /// How long `close` waits for the peer's close frame, then for the server to close TCP.
    public var closeTimeout: Duration
    /// Optional keepalive pings that fail a silent connection.
    public var keepalive: WebSocketKeepalive?
    /// How long a message may take to arrive once its first frame header did; at the deadline
    /// the connection fails with 1008 (policy violation) and `.timedOut(.message(limit:))`.
    /// `nil` (the default): no deadline, as in browsers (a server's slow message is bounded by
    /// `maxMessageSize` and `keepalive`).
    public var messageTimeout: Duration?
    /// How long `ping()` waits for its pong by default.
    public var pingTimeout: Duration
    /// Buffered outgoing bytes above which the async `send` waits for the socket to drain.
    public var sendHighWaterMark: Int
    /// Buffered outgoing bytes beyond which the non-async `write` throws `.sendBufferFull`
    /// instead of buffering more (a message always fits an empty buffer). Default 16 MiB;
    /// `Int.max` for none. Everything waiting counts: messages, pongs, close frames. While more
    /// than this waits, the connection also stops reading from the server until all of it was
    /// handed to the kernel. Pongs never pile up: only the latest ping is answered while an
    /// earlier pong still waits.
    public var writeLimit: Int
    /// Bytes of received messages waiting unread in `messages` above which the connection stops
    /// reading the socket, so TCP pushes back on the peer (Python `websockets`' `max_queue`).
    /// Each message counts its payload plus 64 bytes. Messages handed to `onText`/`onBinary` are
    /// not counted: pause those with `pauseReading()`.
    public var receiveHighWaterMark: Int
    /// Reading resumes once the unread bytes in `messages` fell to this.
    public var receiveLowWaterMark: Int
    /// Makes the transport; replace it to add TLS or a custom stream.
    public var transportFactory: WebSocketTransportFactory
    /// An HTTP proxy to tunnel through with CONNECT (`ws://` and `wss://`); see `HTTPProxy`.
    public var proxy: HTTPProxy?
    /// When `proxy` is nil: use the proxy the environment names (`https_proxy`, `http_proxy`,
    /// `no_proxy`; see `HTTPProxy.fromEnvironment`). Off by default.
    public var proxyFromEnvironment: Bool
    /// permessage-deflate (RFC 7692), offered by default (like browsers); `nil` does not offer it.
    public var perMessageDeflate: PerMessageDeflateOptions?
    /// Where this connection's log records go (connecting, its outcome, handshake rejections,
    /// protocol violations, TLS failures, limits hit); `.off` by default. See <doc:Logging>.
    public var logSink: LogSink

    /// Options with the defaults documented on each property.
    public init(
        headers: HTTPHeaders = HTTPHeaders(),
        origin: String? = nil,
        subprotocols: [String] = [],
        connectTimeout: Duration = .seconds(10),
        handshakeTimeout: Duration = .seconds(10),
        maxMessageSize: Int = 16 << 20,
        maxFrameSize: Int? = nil,
        closeTimeout: Duration = .seconds(5),
        keepalive: WebSocketKeepalive? = nil,
        messageTimeout: Duration? = nil,
        pingTimeout: Duration = .seconds(10),
        sendHighWaterMark: Int = 1 << 20,
        writeLimit: Int = 16 << 20,
        receiveHighWaterMark: Int = 1 << 20,
        receiveLowWaterMark: Int = 256 << 10,
        transportFactory: WebSocketTransportFactory = .default,
        proxy: HTTPProxy? = nil,
        proxyFromEnvironment: Bool = false,
        perMessageDeflate: PerMessageDeflateOptions? = PerMessageDeflateOptions(),
        logSink: LogSink = .off
    ) {
        self.headers = headers
        self.origin = origin
        self.subprotocols = subprotocols
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.maxMessageSize = maxMessageSize
        self.maxFrameSize = maxFrameSize
        self.closeTimeout = closeTimeout
        self.keepalive = keepalive
        self.messageTimeout = messageTimeout
        self.pingTimeout = pingTimeout
        self.sendHighWaterMark = sendHighWaterMark
        self.writeLimit = writeLimit
        self.receiveHighWaterMark = receiveHighWaterMark
        self.receiveLowWaterMark = receiveLowWaterMark
        self.transportFactory = transportFactory
        self.proxy = proxy
        self.proxyFromEnvironment = proxyFromEnvironment
        self.perMessageDeflate = perMessageDeflate
        self.logSink = logSink
    }

    /// The state machine's configuration for these options.
    var configuration: WebSocketConfiguration {
        WebSocketConfiguration(
            maxFrameSize: maxFrameSize ?? maxMessageSize,
            maxMessageSize: maxMessageSize,
            handshakeTimeout: handshakeTimeout,
            closeTimeout: closeTimeout,
            keepalive: keepalive,
            perMessageDeflate: perMessageDeflate,
            messageTimeout: messageTimeout
        )
    }
}
