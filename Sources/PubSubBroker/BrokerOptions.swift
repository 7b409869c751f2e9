import Foundation

/// How a `PubSubBroker` behaves; the defaults are socketcluster-server 19's.
public struct BrokerOptions: Sendable {
    /// The HMAC-SHA256 key that signs and verifies auth tokens (socketcluster-server's `authKey`).
    /// `nil` (the default): the broker generates 32 random bytes, hex-encoded, once when it
    /// starts, so tokens do not survive a restart; `PubSubBroker.options` then holds that key.
    public var authKey: String? = nil
    /// Lifetime given to tokens issued by `setAuthToken` when the payload has no `exp` claim
    /// (`authDefaultExpiry`, 86 400 s).
    public var authDefaultExpiry: Duration = .seconds(86_400)
    /// Time between two server pings (`pingInterval`, 8 s).
    public var pingInterval: Duration = .milliseconds(8_000)
    /// Time without a pong after which the server closes with 4001; also sent to clients in the
    /// handshake response (`pingTimeout`, 20 s).
    public var pingTimeout: Duration = .milliseconds(20_000)
    /// When true, no pings are sent and missing pongs close nothing (`pingTimeoutDisabled`).
    public var pingTimeoutDisabled: Bool = false
    /// Ping/pong frame format: version 2 sends `""` and expects `""`, version 1 `#1`/`#2`.
    public var protocolVersion: SocketClusterProtocolVersion = .v2
    /// How packets are written and read (socketcluster-server's `codecEngine`):
    /// `JSONPacketCodec` by default, `MinBinPacketCodec` to serve clients configured with
    /// `sc-codec-min-bin`, or a codec of your own. Pings and pongs are text frames whatever the
    /// codec. A message the codec cannot read (with min-bin: a text frame other than the pong)
    /// closes the connection with 4009 before the handshake and is dropped after it, as
    /// socketcluster-server does; a client using another codec therefore sees 4009.
    public var codec: any PacketCodec = JSONPacketCodec()
    /// Time a client has to send `#handshake` before the server closes with 4005 (10 s).
    public var handshakeTimeout: Duration = .milliseconds(10_000)
    /// Time the server waits for the answer to its own invokes (`ackTimeout`, 10 s).
    public var ackTimeout: Duration = .milliseconds(10_000)
    /// The HTTP path WebSocket upgrades must use, compared exactly, query ignored
    /// (`/socketcluster/`); an upgrade request on any other path is refused with HTTP 400.
    public var path: String = "/socketcluster/"
    /// Answers the plain HTTP requests (those that are not WebSocket upgrades) on the broker's
    /// port, such as a page that talks to the broker: return a response, or `nil` to leave the
    /// request to the broker, which answers `GET /health-check` with 200 `OK` (what load
    /// balancers and container probes ask; scc-broker serves the same path), other `GET` and
    /// `HEAD` requests with 404 and other methods with 405. `nil` (the default): only the
    /// broker's answers. Called on the broker's queue for every plain request: keep it quick.
    /// Requests are bounded like upgrades (a 16 KiB head within `handshakeTimeout`), one per
    /// connection, and their bodies are never read (see WireKit's `PlainHTTPResponse`).
    ///
    /// ```swift
    /// options.httpRequestHandler = { request in
    ///     guard request.method == "GET", request.target == "/" else { return nil }
    ///     return PlainHTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: page)
    /// }
    /// ```
    public var httpRequestHandler: (@Sendable (HTTPRequestHead) -> PlainHTTPResponse?)? = nil
    /// Whether clients may publish (`allowClientPublish`, true). When false, a client `#publish`
    /// invoke fails with `InvalidActionError` "Client publish feature is disabled".
    public var allowClientPublish: Bool = true
    /// permessage-deflate for clients that offer it (socketcluster-server's `perMessageDeflate`);
    /// `nil` (the default) declines it.
    public var perMessageDeflate: PerMessageDeflateOptions? = nil
    /// Most channels one socket may be subscribed to (`socketChannelLimit`, 1000); `nil` for no
    /// limit. A `#subscribe` beyond it fails with `BrokerError` "… tried to exceed the channel
    /// subscription limit of N", as socketcluster-server answers.
    public var socketChannelLimit: Int? = 1000
    /// Largest inbound message accepted, in bytes (`maxPayload`; socketcluster-server leaves it to
    /// `ws`, whose default is 100 MiB). A larger message closes the connection with 1009.
    public var maxPayload: Int = 100 << 20
    /// Most bytes a connection may have waiting to be written (accepted from the broker, not yet
    /// taken by the kernel), 8 MiB. A connection over it is a slow consumer: it is closed with
    /// `BrokerOptions.slowConsumerCloseCode` (1008) and `onSlowConsumer` handlers are told; the
    /// publisher and every other subscriber go on. socketcluster-server has no such limit (its
    /// memory grows with the slowest reader); uWebSockets calls it `maxBackpressure`.
    public var maxOutboundBufferedBytes: Int = 8 << 20
    /// Most connections open at once (`nil`, the default, for no limit, as socketcluster-server).
    /// A connection beyond it is closed right after its upgrade with 1013 (try again later).
    public var maxConnections: Int? = nil
    /// Most JSON values the broker builds from one inbound message, 1,048,576 (1 Mi); every
    /// scalar, array, object and object key counts one. Parsing stops at the limit and the
    /// connection is closed with `BrokerOptions.tooManyValuesCloseCode` (1009) and a log record, so
    /// a message costs at most this many values of memory (about 24 bytes each, plus strings)
    /// whatever its size. A `#publish` invoke is not counted when no `authorizePublish` hook is
    /// set: it is validated and routed without a tree, its data bytes spliced into the
    /// publication as they arrived. `nil` for no limit. socketcluster-server has no equivalent
    /// (only `maxPayload`).
    public var maxMessageValues: Int? = 1 << 20
    /// Longest channel name a client may subscribe or publish to, in UTF-8 bytes (4,096). A longer
    /// name's `#subscribe`/`#publish` invoke is answered with `InvalidActionError` "Subscribe
    /// channel name exceeded the maximum length of N bytes" (or "Publish …"), a transmit is
    /// dropped, and a log record names the length. `nil` for no limit; socketcluster-server has
    /// none. The application's own `publish` is not limited.
    public var maxChannelNameLength: Int? = 4_096
    /// Most bytes of channel names (the sum of their UTF-8 lengths) one socket may be subscribed
    /// to at once, 1 MiB (1,048,576). A `#subscribe` beyond it fails with `BrokerError` "… tried to
    /// exceed the channel name budget of N bytes", like `socketChannelLimit`'s answer. `nil` for no
    /// limit; socketcluster-server has none (only the count, `socketChannelLimit`).
    public var maxSubscriptionBytes: Int? = 1 << 20
    /// Longest auth token a client may present in `#handshake` or `#authenticate`, in UTF-8 bytes
    /// (65,536). A longer token is not decoded: it is refused as a bad token
    /// (`AuthTokenInvalidError` "jwt longer than N bytes", with `#removeAuthToken`), as a malformed
    /// token is. `nil` for no limit; socketcluster-server has none (only `maxPayload`).
    public var maxAuthTokenLength: Int? = 64 << 10
    /// Where the broker's log records go: sockets connected and disconnected, sockets the broker
    /// closed and why, limits hit (slow consumer, channel limit, `maxConnections`), and WireKit's
    /// records for its connections (refused upgrades, protocol violations, TLS failures, 1009).
    /// `.off` by default; see “Logging” in the WireKit documentation.
    public var logSink: LogSink = .off

    /// The close code of a slow consumer: 1008 (policy violation). The SocketCluster client
    /// reports it as "Encountered a policy violation" and reconnects with back-off, resubscribing.
    public static let slowConsumerCloseCode: SocketClusterCloseCode = .policyViolation
    /// The close code of a connection beyond `maxConnections`: 1013 (try again later), after
    /// which the SocketCluster client reconnects with back-off.
    public static let tooManyConnectionsCloseCode = SocketClusterCloseCode(1013)
    /// The close code of a handshake the `authorizeHandshake` hook rejected without its own code:
    /// 4008, socketcluster-server's "Server rejected handshake from client".
    public static let handshakeRejectedCloseCode: SocketClusterCloseCode = .handshakeRejected
    /// The close code of a message over `maxMessageValues`: 1009 (message too big), the code a
    /// message over `maxPayload` gets; the SocketCluster client reconnects with back-off.
    public static let tooManyValuesCloseCode: SocketClusterCloseCode = .messageTooBig

    /// The socketcluster-server 19 defaults; the broker generates its `authKey` when it starts.
    ///
    /// ```swift
    /// var options = BrokerOptions()
    /// options.pingInterval = .seconds(5)
    /// options.maxConnections = 10_000
    /// ```
    public init() {}

    /// The socketcluster-server 19 defaults, with `authKey` signing and verifying auth tokens.
    public init(authKey: String) {
        self.authKey = authKey
    }

    /// 32 random bytes, hex-encoded: the key of a broker started without one.
    static func generatedAuthKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }
}
