import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WebSocket server: listens on a host and port, answers each upgrade request (101, or
/// 400/426 for a bad one) and hands every upgraded connection to you as a `WebSocket`. Plain
/// HTTP requests on the same port (a health check, a page) can be answered too: see
/// `WebSocketServerOptions.acceptRequest` and `WebSocketUpgradeDecision.respond(status:headers:body:)`.
///
/// Connections are spread over a few serial queues (`WebSocketServerOptions.queueCount`), so
/// thousands of them need no thread each. A connection's callbacks run on its queue: don't
/// block in them, it holds up the other connections sharing that queue.
///
/// A `package` face, `start(host:port:options:queue:onConnection:)`, serves an owner that runs
/// every connection on one serial queue of its own (PubSubBroker's engine): it gets each
/// accepted connection as a bare `WebSocketConnectionDriver` on that queue, with no public
/// `WebSocket`, lock or queue hop per message.
///
/// `@unchecked Sendable`: the table of live connections and the stop state are guarded by
/// `lock`; everything else is immutable after `start`.
public final class WebSocketServer: @unchecked Sendable {
    /// The host given to `start`.
    public let host: String
    /// The port listened on (the system's choice when started with port 0).
    public let port: Int
    /// Upgraded connections, when `start` got no `onConnection` handler. Each connection's
    /// messages are buffered in its `messages` until read. Finishes on `stop`.
    public let connections: AsyncStream<WebSocket>

    private let listener: TCPListener
    private let options: WebSocketServerOptions
    private let configuration: WebSocketConfiguration
    private let pool: [DispatchQueue]
    private let onConnection: (@Sendable (WebSocket) -> Void)?
    private let driverOwner: DriverOwner?
    private let connectionSink: AsyncStream<WebSocket>.Continuation

    private let lock = WireKitLock()
    // lock
    private var live: [ObjectIdentifier: LiveConnection] = [:]
    private var acceptedCount = 0
    private var stopping = false
    private var stopWaiters: [@Sendable () -> Void] = []
    /// The listening socket is closed (stopping waits for it, so the port refuses at once).
    private var listenerClosed = false

    /// Starts listening on `host`:`port` (port 0 picks a free port; read `port`).
    /// - Parameters:
    ///   - host: the address or name to bind to, for example `127.0.0.1` or `::`.
    ///   - port: the TCP port; 0 picks a free one.
    ///   - options: subprotocols, limits, timeouts, TLS and the request filter.
    ///   - onConnection: called with each upgraded connection on that connection's
    ///   queue, before any of its messages is delivered: set its callbacks there (and keep it
    ///   short). Without it, connections arrive through `connections`.
    /// - Throws: `.transport` when the address cannot be listened on (in use, unknown host),
    ///   `.tls` when `options.tls` holds an unusable certificate or key.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, options: WebSocketServerOptions = WebSocketServerOptions(),
        onConnection: (@Sendable (WebSocket) -> Void)? = nil
    ) throws(WebSocketError) -> WebSocketServer {
        try start(host: host, port: port, options: options, onConnection: onConnection, driverOwner: nil)
    }

    /// Starts listening like `start(host:port:options:onConnection:)`, but runs every accepted
    /// connection as a bare driver on `queue`: `onConnection` is called on `queue` with each
    /// driver before it starts and returns the handler for its events (on `queue`, in order;
    /// `.opened` first once the upgrade succeeded, `.closed` last). The owner writes with the
    /// driver's `sendText(trustedUTF8:)`/`flush`/`perform`, on `queue` only. `stop` closes the
    /// drivers still open.
    package static func start(
        host: String, port: Int, options: WebSocketServerOptions, queue: DispatchQueue,
        onConnection: @escaping @Sendable (WebSocketConnectionDriver) -> (WebSocketEvent) -> Void
    )
        throws(WebSocketError) -> WebSocketServer
    {
        try start(
            host: host, port: port, options: options, onConnection: nil,
            driverOwner: DriverOwner(queue: queue, onConnection: onConnection))
    }

    private static func start(
        host: String, port: Int, options: WebSocketServerOptions,
        onConnection: (@Sendable (WebSocket) -> Void)?, driverOwner: DriverOwner?
    )
        throws(WebSocketError) -> WebSocketServer
    {
        var options = options
        if let tls = options.tls {
            let identity: TLSServerIdentity
            do {
                identity = try TLSServerIdentity(tls)
            } catch {
                throw .tls(error)
            }
            let handshakeTimeout = options.handshakeTimeout
            #if canImport(Network) && !canImport(Glibc)
            options.acceptedTransport = { tcp in
                NetworkTLSTransport(server: tcp, identity: identity, handshakeTimeout: handshakeTimeout)
            }
            #else
            options.acceptedTransport = { tcp in TLSTransport(server: tcp, identity: identity, handshakeTimeout: handshakeTimeout) }
            #endif
        }
        let listener: TCPListener
        do {
            listener = try TCPListener(host: host, port: port, backlog: options.backlog)
        } catch {
            throw .transport(error)
        }
        options.logSink.log(.info, .transport, "listening", metadata: ["host": listener.host, "port": String(listener.port)])
        let server = WebSocketServer(listener: listener, options: options, onConnection: onConnection, driverOwner: driverOwner)
        listener.start { [weak server] transport in
            guard let server else { return transport.close() }
            server.accept(transport)
        }
        return server
    }

    private init(
        listener: TCPListener, options: WebSocketServerOptions, onConnection: (@Sendable (WebSocket) -> Void)?,
        driverOwner: DriverOwner?
    ) {
        self.listener = listener
        self.host = listener.host
        self.port = listener.port
        self.options = options
        // One budget for the unfinished messages of all of this server's connections.
        self.configuration = options.configuration(partialMessageBudget: options.maxPartialMessageBytes.map(PartialMessageBudget.init(limit:)))
        self.onConnection = onConnection
        self.driverOwner = driverOwner
        self.pool = (0..<max(1, options.queueCount)).map { index in
            let queue = DispatchQueue(label: "WireKit.WebSocketServer.\(index)")
            // The connections on this queue are read by a loop bound to it (Linux): see `EventLoop`.
            EventLoop.bind(to: queue, name: "WireKit.server.\(index)")
            return queue
        }
        (connections, connectionSink) = AsyncStream.makeStream(of: WebSocket.self)
    }

    deinit {
        listener.close()
        connectionSink.finish()
    }

    /// Bytes the unfinished messages of this server's connections hold of
    /// `WebSocketServerOptions.maxPartialMessageBytes` now (0 without that budget).
    public var partialMessageBytes: Int { configuration.partialMessageBudget?.reservedBytes ?? 0 }

    /// Connections accepted and not yet closed (including those still in the handshake).
    public var connectionCount: Int { lock.withLock { live.count } }

    /// Stops listening and closes every connection with 1001 (going away), waiting for their
    /// close handshakes (each bounded by `closeTimeout`).
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stop { continuation.resume() }
        }
    }

    /// Stops listening and closes every connection with 1001; `completion` runs (on an
    /// arbitrary queue) once all are closed.
    public func stop(completion: @escaping @Sendable () -> Void) {
        let connections = lock.withLock { () -> [LiveConnection] in
            stopping = true
            stopWaiters.append(completion)
            return Array(live.values)
        }
        listener.close { [self] in
            lock.withLock { listenerClosed = true }
            finishStopIfIdle()
        }
        connectionSink.finish()
        for connection in connections {
            switch connection {
            case .socket(let socket):
                socket.disconnect(code: .goingAway, reason: "server stopping")
            case .driver(let driver):
                driver.queue.async {
                    _ = try? driver.perform { machine, now in machine.close(code: .goingAway, reason: "server stopping", now: now) }
                }
            }
        }
        finishStopIfIdle()
    }

    private func accept(_ transport: TCPTransport) {
        let index = lock.withLock { () -> Int? in
            guard !stopping else { return nil }
            acceptedCount &+= 1
            return acceptedCount
        }
        guard let index else { return transport.close() }
        let stream: any Transport = options.acceptedTransport?(transport) ?? transport
        let log = ConnectionLog(sink: options.logSink, serverPeer: transport.remoteAddressDescription)
        if let driverOwner { return accept(stream, log: log, owner: driverOwner) }
        let queue = DispatchQueue(label: "WireKit.WebSocketServer.connection", target: pool[index % pool.count])
        let connection = WebSocketConnection(
            accepted: stream, configuration: configuration, queue: queue,
            highWaterMark: options.sendHighWaterMark,
            receiveWaterMarks: (options.receiveHighWaterMark, options.receiveLowWaterMark),
            writeLimit: options.writeLimit,
            pingTimeout: options.pingTimeout,
            acceptRequest: options.acceptRequest,
            log: log)
        let socket = WebSocket(accepted: connection)
        let onConnection = self.onConnection
        let sink = connectionSink
        // Both closures hold the socket strongly; the connection drops them at open / at the end.
        connection.onServerOpen = {
            if let onConnection { onConnection(socket) } else { sink.yield(socket) }
        }
        connection.onTerminated = { [weak self] in self?.remove(ObjectIdentifier(socket)) }
        lock.withLock { live[ObjectIdentifier(socket)] = .socket(socket) }
        connection.start()
    }

    /// Driver mode: the connection runs on the owner's queue, its events go to the owner's handler.
    private func accept(_ stream: any Transport, log: ConnectionLog, owner: DriverOwner) {
        let machine = WebSocketStateMachine(server: configuration, acceptRequest: options.acceptRequest)
        let driver = WebSocketConnectionDriver(
            machine: machine, transport: stream, queue: owner.queue, writeLimit: options.writeLimit, log: log)
        let key = ObjectIdentifier(driver)
        lock.withLock { live[key] = .driver(driver) }
        owner.queue.async { [weak self] in
            let handler = owner.onConnection(driver)
            // Holds the driver strongly until `.closed`, which breaks the cycle.
            driver.onEvent = { event in
                handler(event)
                guard case .closed = event else { return }
                driver.onEvent = { _ in }
                self?.remove(key)
            }
            driver.start()
        }
    }

    private func remove(_ key: ObjectIdentifier) {
        lock.withLock { _ = live.removeValue(forKey: key) }
        finishStopIfIdle()
    }

    private func finishStopIfIdle() {
        let waiters = lock.withLock { () -> [@Sendable () -> Void] in
            guard stopping, live.isEmpty, listenerClosed else { return [] }
            defer { stopWaiters.removeAll() }
            return stopWaiters
        }
        for waiter in waiters { waiter() }
    }

    /// A connection accepted and not yet over.
    private enum LiveConnection {
        case socket(WebSocket)
        case driver(WebSocketConnectionDriver)
    }

    /// Driver mode's queue and handler factory.
    private struct DriverOwner: Sendable {
        let queue: DispatchQueue
        let onConnection: @Sendable (WebSocketConnectionDriver) -> (WebSocketEvent) -> Void
    }
}
