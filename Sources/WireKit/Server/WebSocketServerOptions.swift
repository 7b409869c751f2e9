#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Settings of a `WebSocketServer` and of every connection it accepts.
public struct WebSocketServerOptions: Sendable {
    /// Subprotocols supported, in preference order; the first one a client offers is selected.
    public var subprotocols: [String]
    /// Extra header fields sent with every 101 response.
    public var responseHeaders: HTTPHeaders
    /// Limit for the client's upgrade request once connected.
    public var handshakeTimeout: Duration
    /// Largest message accepted, in bytes; a larger one fails the connection with 1009.
    public var maxMessageSize: Int
    /// Largest single frame accepted, in bytes (`nil`: same as `maxMessageSize`).
    public var maxFrameSize: Int?
    /// How long a close waits for the peer's close frame.
    public var closeTimeout: Duration
    /// Keepalive pings that fail a silent connection. Default: a ping after 20 s without
    /// receiving anything, and the connection fails (1006, `.timedOut(.keepalive)`) when nothing
    /// at all arrives within 20 s of it, so a dead or stalled peer is gone within 40 s (Python
    /// `websockets`' `ping_interval`/`ping_timeout` of 20 s; `ws` has none built in). `nil`: off.
    public var keepalive: WebSocketKeepalive?
    /// How long a message may take to arrive once its first frame header did. Default 60 s
    /// (16 MiB then needs about 2.3 Mbit/s). At the deadline the connection fails with 1008
    /// (policy violation) and `.timedOut(.message(limit:))`, freeing what the message held.
    /// `nil`: no deadline. Neither `ws` nor socketcluster-server has one.
    public var messageTimeout: Duration?
    /// Bytes that the unfinished messages of all this server's connections may hold together,
    /// counting only messages that need more than 64 KiB (see `PartialMessageBudget`). Default
    /// 128 MiB: room for one message of PubSubBroker's 100 MiB `maxPayload` or eight of 16 MiB
    /// at once, while 50 peers that each announce 16 MiB and send most of it hold at most
    /// 128 MiB plus 64 KiB each. A message that would take the budget past it fails its
    /// connection with 1009 and `.partialMessageBudgetExceeded`; keep it above
    /// `maxMessageSize`, or the largest messages can never arrive. `nil`: no shared bound (each
    /// connection is still bounded by `maxMessageSize`). Read the amount in use with
    /// `WebSocketServer.partialMessageBytes`. Neither `ws` nor socketcluster-server has one.
    public var maxPartialMessageBytes: Int?
    /// How long `ping()` waits for its pong by default.
    public var pingTimeout: Duration
    /// Buffered outgoing bytes above which a connection's async `send` waits.
    public var sendHighWaterMark: Int
    /// Buffered outgoing bytes beyond which the non-async `write` throws `.sendBufferFull`
    /// instead of buffering more (a message always fits an empty buffer). Default 16 MiB;
    /// `Int.max` for none. Everything waiting counts: messages, pongs, close frames. While more
    /// than this waits, the connection also stops reading from the peer (so a peer that sends
    /// without reading is pushed back by TCP) until all of it was handed to the kernel.
    public var writeLimit: Int
    /// Bytes of received messages waiting unread in `messages` above which the connection stops
    /// reading the socket, so TCP pushes back on the peer (Python `websockets`' `max_queue`).
    /// Each message counts its payload plus 64 bytes. Messages handed to `onText`/`onBinary` are
    /// not counted: pause those with `pauseReading()`.
    public var receiveHighWaterMark: Int
    /// Reading resumes once the unread bytes in `messages` fell to this.
    public var receiveLowWaterMark: Int
    /// The kernel's queue of connections not yet accepted.
    public var backlog: Int32
    /// Serial queues the connections' work is spread over (default: one per CPU, at least 2).
    /// Connections never get a thread each.
    public var queueCount: Int
    /// Decides on each upgrade request before it is answered (e.g. by path): `nil` upgrades it,
    /// an HTTP status (400, 403, 404, ...) refuses it with that status and a short body. The
    /// refused connection never reaches the server's handler.
    public var acceptRequest: (@Sendable (HTTPRequestHead) -> Int?)?
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
    public var logSink: LogSink

    /// Options with the defaults documented on each property.
    public init(
        subprotocols: [String] = [],
        responseHeaders: HTTPHeaders = HTTPHeaders(),
        handshakeTimeout: Duration = .seconds(10),
        maxMessageSize: Int = 16 << 20,
        maxFrameSize: Int? = nil,
        closeTimeout: Duration = .seconds(5),
        keepalive: WebSocketKeepalive? = WebSocketKeepalive(interval: .seconds(20), timeout: .seconds(20)),
        messageTimeout: Duration? = .seconds(60),
        maxPartialMessageBytes: Int? = 128 << 20,
        pingTimeout: Duration = .seconds(10),
        sendHighWaterMark: Int = 1 << 20,
        writeLimit: Int = 16 << 20,
        receiveHighWaterMark: Int = 1 << 20,
        receiveLowWaterMark: Int = 256 << 10,
        backlog: Int32 = 1024,
        queueCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        acceptRequest: (@Sendable (HTTPRequestHead) -> Int?)? = nil,
        tls: TLSServerConfiguration? = nil,
        acceptedTransport: (@Sendable (TCPTransport) -> any Transport)? = nil,
        logSink: LogSink = .off
    ) {
        self.subprotocols = subprotocols
        self.responseHeaders = responseHeaders
        self.handshakeTimeout = handshakeTimeout
        self.maxMessageSize = maxMessageSize
        self.maxFrameSize = maxFrameSize
        self.closeTimeout = closeTimeout
        self.keepalive = keepalive
        self.messageTimeout = messageTimeout
        self.maxPartialMessageBytes = maxPartialMessageBytes
        self.pingTimeout = pingTimeout
        self.sendHighWaterMark = sendHighWaterMark
        self.writeLimit = writeLimit
        self.receiveHighWaterMark = receiveHighWaterMark
        self.receiveLowWaterMark = receiveLowWaterMark
        self.backlog = backlog
        self.queueCount = queueCount
        self.acceptRequest = acceptRequest
        self.tls = tls
        self.acceptedTransport = acceptedTransport
        self.logSink = logSink
    }

    /// The state machine's configuration for these options, sharing `partialMessageBudget`.
    func configuration(partialMessageBudget: PartialMessageBudget?) -> WebSocketConfiguration {
        WebSocketConfiguration(
            maxFrameSize: maxFrameSize ?? maxMessageSize,
            maxMessageSize: maxMessageSize,
            handshakeTimeout: handshakeTimeout,
            closeTimeout: closeTimeout,
            keepalive: keepalive,
            subprotocols: subprotocols,
            responseHeaders: responseHeaders,
            perMessageDeflate: perMessageDeflate,
            messageTimeout: messageTimeout,
            partialMessageBudget: partialMessageBudget
        )
    }
}
