import Foundation

/// How a `PubSubBroker` behaves; the defaults are socketcluster-server 19's.
public struct BrokerOptions: Sendable {
    /// The HMAC-SHA256 key that signs and verifies auth tokens (socketcluster-server's `authKey`).
    /// Defaults to 32 random bytes, hex-encoded, so tokens do not survive a restart.
    public var authKey: String
    /// Lifetime given to tokens issued by `setAuthToken` when the payload has no `exp` claim
    /// (`authDefaultExpiry`, 86 400 s).
    public var authDefaultExpiry: Duration
    /// Time between two server pings (`pingInterval`, 8 s).
    public var pingInterval: Duration
    /// Time without a pong after which the server closes with 4001; also sent to clients in the
    /// handshake response (`pingTimeout`, 20 s).
    public var pingTimeout: Duration
    /// When true, no pings are sent and missing pongs close nothing (`pingTimeoutDisabled`).
    public var pingTimeoutDisabled: Bool
    /// Ping/pong frame format: version 2 sends `""` and expects `""`, version 1 `#1`/`#2`.
    public var protocolVersion: SocketClusterProtocolVersion
    /// Time a client has to send `#handshake` before the server closes with 4005 (10 s).
    public var handshakeTimeout: Duration
    /// Time the server waits for the answer to its own invokes (`ackTimeout`, 10 s).
    public var ackTimeout: Duration
    /// The HTTP path WebSocket upgrades must use, compared exactly, query ignored
    /// (`/socketcluster/`); any other path is refused with HTTP 400.
    public var path: String
    /// Whether clients may publish (`allowClientPublish`, true). When false, a client `#publish`
    /// invoke fails with `InvalidActionError` "Client publish feature is disabled".
    public var allowClientPublish: Bool
    /// permessage-deflate for clients that offer it (socketcluster-server's `perMessageDeflate`);
    /// `nil` (the default) declines it.
    public var perMessageDeflate: PerMessageDeflateOptions?

    /// The socketcluster-server 19 defaults, with a random `authKey`.
    public init(
        authKey: String? = nil,
        authDefaultExpiry: Duration = .seconds(86_400),
        pingInterval: Duration = .milliseconds(8_000),
        pingTimeout: Duration = .milliseconds(20_000),
        pingTimeoutDisabled: Bool = false,
        protocolVersion: SocketClusterProtocolVersion = .v2,
        handshakeTimeout: Duration = .milliseconds(10_000),
        ackTimeout: Duration = .milliseconds(10_000),
        path: String = "/socketcluster/",
        allowClientPublish: Bool = true,
        perMessageDeflate: PerMessageDeflateOptions? = nil
    ) {
        self.authKey = authKey ?? BrokerOptions.randomKey()
        self.authDefaultExpiry = authDefaultExpiry
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.pingTimeoutDisabled = pingTimeoutDisabled
        self.protocolVersion = protocolVersion
        self.handshakeTimeout = handshakeTimeout
        self.ackTimeout = ackTimeout
        self.path = path
        self.allowClientPublish = allowClientPublish
        self.perMessageDeflate = perMessageDeflate
    }

    private static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }
}

