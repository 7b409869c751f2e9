/// Options of one client session. Defaults are the JS client's (socketcluster-client's defaults) unless noted.
public struct SessionConfiguration: Sendable {
    /// Where to connect.
    public var address: ServerAddress
    /// Extra HTTP headers of the WebSocket upgrade request (Origin, Cookie, Authorization...).
    public var headers: [String: String]
    /// Which pings to answer. Default `.automatic`: both protocol 1's `#1` and protocol 2's empty
    /// frame, so any socketcluster-server version works (socketcluster-client instead takes the
    /// server's `protocolVersion`, 2 by default, and is dropped with 4001 by a protocol-1 server).
    /// `.v1` or `.v2` answer one kind only; the other then surfaces as a raw message.
    public var protocolVersion: PingProtocolVersion
    /// How packets are written and read: `JSONPacketCodec` by default (text frames), or
    /// `MinBinPacketCodec` for a server with `codecEngine: require('sc-codec-min-bin')`, or a
    /// codec of your own. It must be the server's: a JSON client is closed by a min-bin
    /// socketcluster-server with 4009 before the handshake, and a frame of the other type before
    /// the handshake makes this client report ``PubSubError/Code/codecMismatch``
    /// and close with 1003. Pings and pongs are text frames whatever the codec.
    public var codec: any PacketCodec
    /// From opening the WebSocket to its being open (4007), and the ping timer before the
    /// handshake completes. Default 20 s. The session owns this deadline: WireKit's connect and
    /// upgrade timers for the connection run out 1 s later, and a transport that still gives up
    /// first on a timer of its own (TCP connect, proxy, upgrade) is reported as the same 4007
    /// "Client connection establishment timed out", as socketcluster-client's `connectTimeout` does.
    public var connectTimeout: Duration
    /// Default ack timeout of calls and of the handshake (4003). Default 10 s.
    public var ackTimeout: Duration
    /// Turns the client's ping timer off (for servers with `pingTimeoutDisabled`).
    public var pingTimeoutDisabled: Bool
    /// Reconnect after a close the policy allows. Default true.
    public var autoReconnect: Bool
    /// Back-off delays.
    public var reconnectPolicy: ReconnectPolicy
    /// Give up after this many consecutive failed attempts; nil retries forever (JS behaviour).
    public var maxReconnectAttempts: Int?
    /// Prepended to channel names on the wire and stripped from inbound ones (Protocol.md §8).
    public var channelPrefix: String?
    /// Key of the auth token in the token store. Default: the JS ≥ 18.2 rule (Protocol.md §9).
    public var authTokenName: String
    /// Most calls kept in the outbound queue while not connected. Default 1000.
    public var maxQueuedMessages: Int
    /// Most bytes (serialized) kept in the outbound queue while not connected. Default 4 MiB.
    public var maxQueuedBytes: Int
    /// How long before the auth token's `exp` the `authTokenExpiring` event comes. Default 60 s.
    public var tokenExpiryWarning: Duration
    /// On Apple platforms, reconnect at once when the network path comes back (NWPathMonitor)
    /// instead of waiting for the back-off delay. Default true; ignored elsewhere.
    public var reconnectWhenNetworkReturns: Bool
    /// Called with every text frame the client driver writes or receives (pings and pongs
    /// included), in wire order, on the client's serial queue: keep it fast. For debugging and
    /// traces; the frames are exactly what goes over the WebSocket. Binary frames (a binary
    /// codec's packets) are not reported. A `ClientSession` you drive
    /// yourself does not call it. Default nil.
    public var frameObserver: (@Sendable (FrameDirection, String) -> Void)?
    /// Where the client's log records go: the session's (connecting, connected, handshake
    /// rejections, reconnect decisions) and, unless `WebSocketOptions.logSink` is set, WireKit's
    /// for its connections (transport, TLS, WebSocket). `.off` by default; see “Logging” in the
    /// WireKit documentation.
    public var logSink: LogSink
    /// Source of uniform random numbers in `0..<1` for back-off jitter; injectable for tests.
    public var random: @Sendable () -> Double

    /// Options for `address`; every other parameter defaults to the JS client's value (except
    /// `protocolVersion`, `.automatic`).
    public init(
        address: ServerAddress,
        headers: [String: String] = [:],
        protocolVersion: PingProtocolVersion = .automatic,
        codec: any PacketCodec = JSONPacketCodec(),
        connectTimeout: Duration = .seconds(20),
        ackTimeout: Duration = .seconds(10),
        pingTimeoutDisabled: Bool = false,
        autoReconnect: Bool = true,
        reconnectPolicy: ReconnectPolicy = ReconnectPolicy(),
        maxReconnectAttempts: Int? = nil,
        channelPrefix: String? = nil,
        authTokenName: String? = nil,
        maxQueuedMessages: Int = 1000,
        maxQueuedBytes: Int = 4 << 20,
        tokenExpiryWarning: Duration = .seconds(60),
        reconnectWhenNetworkReturns: Bool = true,
        frameObserver: (@Sendable (FrameDirection, String) -> Void)? = nil,
        logSink: LogSink = .off,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.address = address
        self.headers = headers
        self.protocolVersion = protocolVersion
        self.codec = codec
        self.connectTimeout = connectTimeout
        self.ackTimeout = ackTimeout
        self.pingTimeoutDisabled = pingTimeoutDisabled
        self.autoReconnect = autoReconnect
        self.reconnectPolicy = reconnectPolicy
        self.maxReconnectAttempts = maxReconnectAttempts
        self.channelPrefix = channelPrefix
        self.authTokenName = authTokenName ?? address.defaultTokenName
        self.maxQueuedMessages = maxQueuedMessages
        self.maxQueuedBytes = maxQueuedBytes
        self.tokenExpiryWarning = tokenExpiryWarning
        self.reconnectWhenNetworkReturns = reconnectWhenNetworkReturns
        self.frameObserver = frameObserver
        self.logSink = logSink
        self.random = random
    }
}
