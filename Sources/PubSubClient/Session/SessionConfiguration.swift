/// Options of one client session. Defaults are the JS client's (socketcluster-client's defaults) unless noted.
public struct SessionConfiguration: Sendable {
    /// Where to connect.
    public var address: ServerAddress
    /// Extra HTTP headers of the WebSocket upgrade request (Origin, Cookie, Authorization...).
    public var headers: [String: String] = [:]
    /// Which pings to answer. Default `.automatic`: both protocol 1's `#1` and protocol 2's empty
    /// frame, so any socketcluster-server version works (socketcluster-client instead takes the
    /// server's `protocolVersion`, 2 by default, and is dropped with 4001 by a protocol-1 server).
    /// `.v1` or `.v2` answer one kind only; the other then surfaces as a raw message.
    public var protocolVersion: PingProtocolVersion = .automatic
    /// How packets are written and read: `JSONPacketCodec` by default (text frames), or
    /// `MinBinPacketCodec` for a server with `codecEngine: require('sc-codec-min-bin')`, or a
    /// codec of your own. It must be the server's: a JSON client is closed by a min-bin
    /// socketcluster-server with 4009 before the handshake, and a frame of the other type before
    /// the handshake makes this client report ``PubSubError/Code/codecMismatch``
    /// and close with 1003. Pings and pongs are text frames whatever the codec.
    public var codec: any PacketCodec = JSONPacketCodec()
    /// From opening the WebSocket to its being open (4007), and the ping timer before the
    /// handshake completes. Default 20 s. The session owns this deadline: WireKit's connect and
    /// upgrade timers for the connection run out 1 s later, and a transport that still gives up
    /// first on a timer of its own (TCP connect, proxy, upgrade) is reported as the same 4007
    /// "Client connection establishment timed out", as socketcluster-client's `connectTimeout` does.
    public var connectTimeout: Duration = .seconds(20)
    /// Default ack timeout of calls and of the handshake (4003). Default 10 s.
    public var ackTimeout: Duration = .seconds(10)
    /// Turns the client's ping timer off (for servers with `pingTimeoutDisabled`).
    public var pingTimeoutDisabled: Bool = false
    /// Reconnect after a close the policy allows. Default true.
    public var autoReconnect: Bool = true
    /// Back-off delays.
    public var reconnectPolicy: ReconnectPolicy = ReconnectPolicy()
    /// Give up after this many consecutive failed attempts; nil retries forever (JS behaviour).
    public var maxReconnectAttempts: Int? = nil
    /// Prepended to channel names on the wire and stripped from inbound ones (Protocol.md §8).
    public var channelPrefix: String? = nil
    /// Key of the auth token in the token store. Default nil: derived from ``address`` when the
    /// token is loaded or saved, by the JS ≥ 18.2 rule (`socketcluster.authToken.<host>:<port>`,
    /// Protocol.md §9), so changing `address` later moves the key with it.
    public var authTokenName: String? = nil
    /// Most calls kept in the outbound queue while not connected. Default 1000.
    public var maxQueuedMessages: Int = 1000
    /// Most bytes (serialized) kept in the outbound queue while not connected. Default 4 MiB.
    public var maxQueuedBytes: Int = 4 << 20
    /// How long before the auth token's `exp` the `authTokenExpiring` event comes. Default 60 s.
    public var tokenExpiryWarning: Duration = .seconds(60)
    /// On Apple platforms, reconnect at once when the network path comes back (NWPathMonitor)
    /// instead of waiting for the back-off delay. Default true; ignored elsewhere.
    public var reconnectWhenNetworkReturns: Bool = true
    /// Called with every text frame the client driver writes or receives (pings and pongs
    /// included), in wire order, on the client's serial queue: keep it fast. For debugging and
    /// traces; the frames are exactly what goes over the WebSocket. Binary frames (a binary
    /// codec's packets) are not reported. Default nil.
    public var frameObserver: (@Sendable (FrameDirection, String) -> Void)? = nil
    /// Where the client's log records go: the session's (connecting, connected, handshake
    /// rejections, reconnect decisions) and, unless `WebSocketOptions.logSink` is set, WireKit's
    /// for its connections (transport, TLS, WebSocket). `.off` by default; see “Logging” in the
    /// WireKit documentation.
    public var logSink: LogSink = .off
    /// Source of uniform random numbers in `0..<1` for back-off jitter; injectable for tests.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Options for `address`; every other option starts at its default, the JS client's value
    /// (except ``protocolVersion``, `.automatic`). Set the others as properties:
    ///
    /// ```swift
    /// var configuration = SessionConfiguration(address: try ServerAddress(url: "wss://example.com/socketcluster/"))
    /// configuration.ackTimeout = .seconds(5)
    /// configuration.autoReconnect = false
    /// ```
    public init(address: ServerAddress) {
        self.address = address
    }

    /// The token store key in use: ``authTokenName``, or the one derived from ``address``.
    var tokenName: String { authTokenName ?? address.defaultTokenName }
}
