@_exported import PubSubProtocol
import Foundation
@_exported import WireKit

/// An in-process SocketCluster broker speaking socketcluster-server 19's protocol, for local
/// development, demos and tests (not for production: use socketcluster-server, and SCC for
/// scale).
///
/// ```swift
/// let broker = try await PubSubBroker.start(port: 0)
/// broker.procedure("echo") { request in request.data }
/// ```
public final class PubSubBroker: Sendable {
    let engine: BrokerEngine
    let listener: BrokerListener?
    let host: String
    let isSecure: Bool

    init(engine: BrokerEngine, listener: BrokerListener?, host: String = "127.0.0.1", isSecure: Bool = false) {
        self.engine = engine
        self.listener = listener
        self.host = host
        self.isSecure = isSecure
    }

    /// The options the broker runs with; `authKey` is the key in use (the one the broker
    /// generated when it started, if the options had none).
    public var options: BrokerOptions { engine.options }

    // MARK: - Application handlers

    /// Registers the procedure answering client invokes of `name` (replacing any earlier one).
    /// The handler runs on the broker's serial context; return the answer's data (`nil` for none)
    /// or throw to answer with an error (`RemoteError` keeps its name, message and fields).
    /// Invokes of a procedure nobody registered are never answered, as with the real server.
    public func procedure(_ name: String, _ handler: @escaping @Sendable (BrokerRequest) throws -> JSONValue?) {
        engine.setProcedure(name, .sync(handler))
    }

    /// Registers an asynchronous procedure: each call runs in its own task, so slow calls do not
    /// hold up others and answers go out in completion order.
    public func procedure(_ name: String, _ handler: @escaping @Sendable (BrokerRequest) async throws -> JSONValue?) {
        engine.setProcedure(name, .async(handler))
    }

    /// Registers the receiver for client transmits of `name`; it runs on the broker's serial
    /// context, in arrival order, and must not block.
    public func receiver(_ name: String, _ handler: @escaping @Sendable (BrokerMessage) -> Void) {
        engine.setReceiver(name, handler)
    }

    /// Decides client subscriptions (`#subscribe` invokes and transmits): throw to reject; the
    /// client's invoke is answered with the thrown error. Runs on the serial context before the
    /// connection's next packet is processed; must not block; sees a snapshot of the socket.
    public func authorizeSubscribe(_ hook: @escaping @Sendable (BrokerSubscribeRequest) throws -> Void) {
        engine.setHooks { $0.authorizeSubscribe = hook }
    }

    /// Decides client publishes: throw to reject (an invoke publish gets the error, a transmit
    /// publish is dropped).
    public func authorizePublish(_ hook: @escaping @Sendable (BrokerPublishRequest) throws -> Void) {
        engine.setHooks { $0.authorizePublish = hook }
    }

    /// Decides each connection's first `#handshake` before it is answered (socketcluster-server's
    /// handshake middleware): throw `BrokerHandshakeRejection(code:reason:)` to answer the
    /// handshake with an error and close with that code and reason; any other error closes with
    /// 4008 and its description. Runs on the serial context; must not block.
    public func authorizeHandshake(_ hook: @escaping @Sendable (BrokerHandshakeRequest) throws -> Void) {
        engine.setHooks { $0.authorizeHandshake = hook }
    }

    /// Called on the serial context when a connection became a slow consumer (more than
    /// `maxOutboundBufferedBytes` waiting to be written), with the socket and the bytes it had
    /// waiting, just before it is closed with `BrokerOptions.slowConsumerCloseCode` (1008);
    /// `onDisconnection` follows with that code.
    ///
    /// ```swift
    /// broker.onSlowConsumer { slow in print("slow", slow.socket.id, slow.bufferedBytes) }
    /// ```
    public func onSlowConsumer(_ handler: @escaping @Sendable (BrokerSlowConsumer) -> Void) {
        engine.addSlowConsumerHandler(handler)
    }

    /// Called on the serial context when a socket completes its first handshake.
    public func onConnection(_ handler: @escaping @Sendable (BrokerSocket) -> Void) {
        engine.addConnectionHandler(handler)
    }

    /// Called on the serial context when a socket that had completed its handshake closes,
    /// with the socket, the close code and the reason.
    ///
    /// ```swift
    /// broker.onDisconnection { left in print("left", left.socket.id, left.code, left.reason) }
    /// ```
    public func onDisconnection(_ handler: @escaping @Sendable (BrokerDisconnection) -> Void) {
        engine.addDisconnectionHandler(handler)
    }

    // MARK: - Server-side actions

    /// Publishes `data` to every socket subscribed to `channel`, in subscription order.
    public func publish(channel: String, data: JSONValue?) {
        engine.perform { core, _ in core.publish(channel: channel, data: data) }
    }

    /// The sockets that completed their handshake and are open.
    public var sockets: [BrokerSocket] { engine.connectedSockets }

    /// How many sockets are subscribed to `channel`.
    public func subscriberCount(channel: String) -> Int {
        engine.read { core in core.subscriberCount(of: channel) }
    }
}

extension PubSubBroker {
    /// Starts a broker listening on `host`:`port` (0 picks a free port; read `port`). With `tls`
    /// (certificate chain and key, `import WireKit`), it serves `wss://`.
    /// - Throws: ``PubSubBrokerError`` with code ``PubSubBrokerError/Code/listenFailed`` when the
    ///   address cannot be bound, ``PubSubBrokerError/Code/tlsSetupFailed`` when the certificate or
    ///   key cannot be loaded.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, options: BrokerOptions = BrokerOptions(),
        tls: TLSServerConfiguration? = nil
    ) async throws -> PubSubBroker {
        let engine = BrokerEngine(options: options)
        let listener = try WebSocketBrokerListener.start(host: host, port: port, options: options, tls: tls, engine: engine)
        return PubSubBroker(engine: engine, listener: listener, host: host, isSecure: tls != nil)
    }

    /// The TCP port the broker listens on (0 when it was created without a network side).
    public var port: Int { listener?.port ?? 0 }

    /// The URL clients connect to, e.g. `ws://127.0.0.1:8000/socketcluster/` (`wss://` with TLS).
    public var url: URL {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let scheme = isSecure ? "wss" : "ws"
        return URL(string: "\(scheme)://\(bracketed):\(port)\(options.path)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops listening and closes every connection (1001, going away), waiting for the close
    /// handshakes. Registered handlers stay, but no socket remains.
    public func stop() async {
        // The broker closes its sockets first, so disconnections are reported before `stop`
        // returns; WireKit's stop then waits for the close handshakes and closes the listener.
        engine.disconnectAll(code: SocketClusterCloseCode.goingAway.rawValue, reason: "")
        await listener?.stop()
    }
}
