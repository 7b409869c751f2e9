#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Settings of a `WebSocketServer` and of every connection it accepts.
public struct WebSocketServerOptions: Sendable {
    /// Subprotocols supported, in preference order; the first one a client offers is selected.
    public var subprotocols: [String] = []
    /// Extra header fields sent with every 101 response.
    public var responseHeaders: HTTPHeaders = HTTPHeaders()
    /// Limit for the client's upgrade request once connected.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Largest message accepted, in bytes; a larger one fails the connection with 1009.
    public var maxMessageSize: Int = 16 << 20
    /// Largest single frame accepted, in bytes (`nil`: same as `maxMessageSize`).
    public var maxFrameSize: Int?
    /// How long a close waits for the peer's close frame.
    public var closeTimeout: Duration = .seconds(5)
    /// Keepalive pings that fail a silent connection. Default: a ping after 20 s without
    /// receiving anything, and the connection fails (1006, `.timedOut`, timeout kind `.keepalive`) when nothing
    /// at all arrives within 20 s of it, so a dead or stalled peer is gone within 40 s (Python
    /// `websockets`' `ping_interval`/`ping_timeout` of 20 s; `ws` has none built in). `nil`: off.
    public var keepalive: WebSocketKeepalive? = WebSocketKeepalive(interval: .seconds(20), timeout: .seconds(20))
    /// How long a message may take to arrive once its first frame header did. Default 60 s
    /// (16 MiB then needs about 2.3 Mbit/s). At the deadline the connection fails with 1008
    /// (policy violation) and `.timedOut` (timeout kind `.message`), freeing what the message held.
    /// `nil`: no deadline. Neither `ws` nor socketcluster-server has one.
    public var messageTimeout: Duration? = .seconds(60)
    /// Bytes that the unfinished messages of all this server's connections may hold together,
    /// counting only messages that need more than 64 KiB. Default
    /// 128 MiB: room for one message of PubSubBroker's 100 MiB `maxPayload` or eight of 16 MiB
    /// at once, while 50 peers that each announce 16 MiB and send most of it hold at most
    /// 128 MiB plus 64 KiB each. A message that would take the budget past it fails its
    /// connection with 1009 and `.partialMessageBudgetExceeded`; keep it above
    /// `maxMessageSize`, or the largest messages can never arrive. `nil`: no shared bound (each
    /// connection is still bounded by `maxMessageSize`). Read the amount in use with
    /// `WebSocketServer.partialMessageBytes`. Neither `ws` nor socketcluster-server has one.
    public var maxPartialMessageBytes: Int? = 128 << 20
    /// How long `ping()` waits for its pong by default.
    public var pingTimeout: Duration = .seconds(10)
    /// Buffered outgoing bytes above which a connection's async `send` waits.
    public var sendHighWaterMark: Int = 1 << 20
    /// Buffered outgoing bytes beyond which the non-async `write` throws `.sendBufferFull`
    /// instead of buffering more (a message always fits an empty buffer). Default 16 MiB;
    /// `Int.max` for none. Everything waiting counts: messages, pongs, close frames. While more
    /// than this waits, the connection also stops reading from the peer (so a peer that sends
    /// without reading is pushed back by TCP) until all of it was handed to the kernel.
    public var writeLimit: Int = 16 << 20
    /// Bytes of received messages waiting unread in `messages` above which the connection stops
    /// reading the socket, so TCP pushes back on the peer (Python `websockets`' `max_queue`).
    /// Each message counts its payload plus 64 bytes. Messages handed to `onText`/`onBinary` are
    /// not counted: pause those with `pauseReading()`.
    public var receiveHighWaterMark: Int = 1 << 20
    /// Reading resumes once the unread bytes in `messages` fell to this.
    public var receiveLowWaterMark: Int = 256 << 10
    /// The kernel's queue of connections not yet accepted.
    public var backlog: Int32 = 1024
    /// Serial queues the connections' work is spread over (default: one per CPU, at least 2).
    /// Connections never get a thread each.
    public var queueCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Decides on each request before it is answered (e.g. by path): `.accept` upgrades it,
    /// `.refuse(status:)` (400, 403, 404, ...) refuses it with that status and a short body,
    /// e.g. `options.acceptRequest = { $0.target == "/chat" ? .accept : .refuse(status: 404) }`;
    /// `.respond(status:headers:body:)` answers it with a response of your own, for plain HTTP
    /// requests (`HTTPRequestHead.isWebSocketUpgrade` is false) such as a health check or a
    /// page. The connection of a refused or answered request never reaches the server's
    /// handler. The request head is bounded like an upgrade's (16 KiB, within
    /// `handshakeTimeout`); a request body is never read (see `PlainHTTPResponse`). `nil` (the
    /// default) upgrades every valid request and refuses the others with 400 or 426.
    public var acceptRequest: (@Sendable (HTTPRequestHead) -> WebSocketUpgradeDecision)?
    /// Serve `wss://`: certificate chain and key for TLS on every accepted connection (the TLS
    /// handshake is bounded by `handshakeTimeout`). Takes precedence over `acceptedTransport`.
    public var tls: TLSServerConfiguration?
    /// permessage-deflate (RFC 7692) for clients that offer it; `nil` (the default): declined.
    public var perMessageDeflate: PerMessageDeflateOptions?
    /// Wraps each accepted TCP connection before the WebSocket handshake (a custom stream
    /// layer); `nil` serves plain TCP.
    public var acceptedTransport: (@Sendable (TCPTransport) -> any Transport)?
    /// Where the server's and its connections' log records go (refused upgrades, protocol
    /// violations, TLS failures, limits hit); `.off` by default. See <doc:Logging>.
    public var logSink: LogSink = .off

    /// Options with the defaults documented on each property; change them one by one
    /// (`var options = WebSocketServerOptions(); options.maxMessageSize = 1 << 20`).
    public init() {}

    /// The state machine's configuration for these options, sharing `partialMessageBudget`.
    func configuration(partialMessageBudget: PartialMessageBudget?) -> WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.maxFrameSize = maxFrameSize ?? maxMessageSize
        configuration.maxMessageSize = maxMessageSize
        configuration.handshakeTimeout = handshakeTimeout
        configuration.closeTimeout = closeTimeout
        configuration.keepalive = keepalive
        configuration.subprotocols = subprotocols
        configuration.responseHeaders = responseHeaders
        configuration.perMessageDeflate = perMessageDeflate
        configuration.messageTimeout = messageTimeout
        configuration.partialMessageBudget = partialMessageBudget
        return configuration
    }
}
