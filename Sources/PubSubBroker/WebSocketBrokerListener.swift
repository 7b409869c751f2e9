import Foundation
import WireKit

/// The broker's network side on WireKit's `WebSocketServer`: each upgraded connection on the
/// configured path becomes a broker connection; frames go to `BrokerEngine`, and the engine's
/// sends and closes come back here. Connections are spread over WireKit's queue pool, so there is
/// no thread per connection.
///
/// The I/O limits live here: `maxOutboundBufferedBytes` (checked before every write: a connection
/// over it is handed to `BrokerEngine.slowConsumer` and gets nothing more), `maxConnections`
/// (checked as a connection opens) and `maxPayload` (WireKit's `maxMessageSize`).
final class WebSocketBrokerListener: BrokerTransport, BrokerListener, @unchecked Sendable {
    // `connections` is guarded by `lock`; `server` is set once in `start` before any connection.
    private let lock = NSLock()
    private var connections: [BrokerConnectionID: WebSocket] = [:]
    private var server: WebSocketServer?
    private(set) var port = 0
    private let maxOutboundBufferedBytes: Int
    private let maxConnections: Int?
    private weak var engine: BrokerEngine?
    private let log: BrokerLog

    private init(maxOutboundBufferedBytes: Int, maxConnections: Int?, engine: BrokerEngine, log: BrokerLog) {
        self.maxOutboundBufferedBytes = maxOutboundBufferedBytes
        self.maxConnections = maxConnections
        self.engine = engine
        self.log = log
    }

    /// Binds `host`:`port` and starts feeding `engine`; with `tls`, WireKit's server speaks
    /// `wss://` (its `handshakeTimeout` bounds the TLS handshake and the upgrade).
    static func start(
        host: String, port: Int, options: BrokerOptions, tls: TLSServerConfiguration?, engine: BrokerEngine
    ) throws -> WebSocketBrokerListener {
        let path = options.path
        var serverOptions = WebSocketServerOptions()
        serverOptions.perMessageDeflate = options.perMessageDeflate
        // ws (socketcluster-server's engine) closes with 1009 above `maxPayload`, as WireKit does.
        serverOptions.maxMessageSize = options.maxPayload
        // The listener bounds what waits per connection itself (`maxOutboundBufferedBytes`).
        serverOptions.writeLimit = .max
        // socketcluster-server (ws) compares the path exactly and refuses others with HTTP 400.
        serverOptions.acceptRequest = { request in requestPath(request.target) == path ? nil : 400 }
        serverOptions.tls = tls
        serverOptions.logSink = options.logSink
        let listener = WebSocketBrokerListener(
            maxOutboundBufferedBytes: options.maxOutboundBufferedBytes, maxConnections: options.maxConnections,
            engine: engine, log: BrokerLog(options: options))
        engine.attach(transport: listener)
        do {
            let server = try WebSocketServer.start(host: host, port: port, options: serverOptions) { [weak listener, weak engine] socket in
                guard let listener, let engine else { return socket.disconnect(code: .goingAway) }
                listener.accept(socket, engine: engine)
            }
            listener.server = server
            listener.port = server.port
        } catch {
            if case .tls(let failure) = error { throw PubSubBrokerError.tlsSetupFailed(reason: failure.description) }
            throw PubSubBrokerError.listenFailed(host: host, port: port, reason: error.description)
        }
        return listener
    }

    private func accept(_ socket: WebSocket, engine: BrokerEngine) {
        // Counted and registered under one lock, so concurrent upgrades cannot overshoot.
        let connection: BrokerConnectionID? = lock.withLock {
            if let maxConnections, connections.count >= maxConnections { return nil }
            let connection = engine.connectionOpened()
            connections[connection] = socket
            return connection
        }
        guard let connection else {
            log.maxConnectionsReached(limit: maxConnections ?? 0, webSocket: socket.logConnection)
            return socket.disconnect(code: WebSocketCloseCode(BrokerOptions.tooManyConnectionsCloseCode),
                                     reason: "Too many connections")
        }
        log.opened(connection, webSocket: socket.logConnection)
        socket.onText = { text in engine.received(text: text, from: connection) }
        socket.onBinary = { data in engine.received(binary: Array(data), from: connection) }
        socket.onClose = { [weak self] info in
            self?.lock.withLock { _ = self?.connections.removeValue(forKey: connection) }
            engine.connectionClosed(connection, code: info.code.rawValue, reason: info.reason)
        }
    }

    func send(_ text: String, on connection: BrokerConnectionID) {
        guard let socket = lock.withLock({ connections[connection] }) else { return }
        // One message always fits an empty buffer, so a message larger than the limit still
        // reaches a reader that keeps up.
        let buffered = socket.bufferedAmount
        if buffered > 0, buffered + text.utf8.count > maxOutboundBufferedBytes {
            // A slow consumer: nothing more is written; what is buffered goes out before the
            // close frame if the peer reads again, else the close timeout ends the connection.
            lock.withLock { _ = connections.removeValue(forKey: connection) }
            let reason = "Slow consumer: more than \(maxOutboundBufferedBytes) bytes waiting to be written"
            socket.disconnect(code: WebSocketCloseCode(BrokerOptions.slowConsumerCloseCode), reason: reason)
            engine?.slowConsumer(connection, bufferedBytes: buffered, reason: reason)
            return
        }
        // A write to a closing connection fails; the close itself reaches the engine via onClose.
        try? socket.write(text: text)
    }

    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        let socket = lock.withLock { connections.removeValue(forKey: connection) }
        socket?.disconnect(code: WebSocketCloseCode(code), reason: reason)
    }

    /// Connections currently open.
    var connectionCount: Int { lock.withLock { connections.count } }

    /// Every open connection's bytes waiting to be written (for tests).
    var bufferedAmounts: [Int] { lock.withLock { connections.values.map(\.bufferedAmount) } }

    func stop() async {
        await server?.stop()
    }
}

/// The path part of a request target (the query is ignored).
private func requestPath(_ target: String) -> String {
    target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
}
