import Foundation
import WireKit

/// The broker's network side on WireKit's `WebSocketServer`: each upgraded connection on the
/// configured path becomes a broker connection; frames go to `BrokerEngine`, and the engine's
/// sends and closes come back here. Connections are spread over WireKit's queue pool, so there is
/// no thread per connection.
final class WebSocketBrokerListener: BrokerTransport, BrokerListener, @unchecked Sendable {
    // `connections` is guarded by `lock`; `server` is set once in `start` before any connection.
    private let lock = NSLock()
    private var connections: [BrokerConnectionID: WebSocket] = [:]
    private var server: WebSocketServer?
    private(set) var port = 0

    /// Binds `host`:`port` and starts feeding `engine`; with `tls`, WireKit's server speaks
    /// `wss://` (its `handshakeTimeout` bounds the TLS handshake and the upgrade).
    static func start(
        host: String, port: Int, path: String, tls: TLSServerConfiguration?,
        perMessageDeflate: PerMessageDeflateOptions? = nil, engine: BrokerEngine
    ) throws -> WebSocketBrokerListener {
        var serverOptions = WebSocketServerOptions()
        serverOptions.perMessageDeflate = perMessageDeflate
        // socketcluster-server (ws) compares the path exactly and refuses others with HTTP 400.
        serverOptions.acceptRequest = { request in requestPath(request.target) == path ? nil : 400 }
        serverOptions.tls = tls
        let listener = WebSocketBrokerListener()
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
        let connection = engine.connectionOpened()
        lock.withLock { connections[connection] = socket }
        socket.onText = { text in engine.received(text: text, from: connection) }
        socket.onBinary = { data in engine.received(binary: Array(data), from: connection) }
        socket.onClose = { [weak self] info in
            self?.lock.withLock { _ = self?.connections.removeValue(forKey: connection) }
            engine.connectionClosed(connection, code: info.code.rawValue, reason: info.reason)
        }
    }

    func send(_ text: String, on connection: BrokerConnectionID) {
        let socket = lock.withLock { connections[connection] }
        // A write to a closing connection fails; the close itself reaches the engine via onClose.
        try? socket?.write(text: text)
    }

    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        let socket = lock.withLock { connections.removeValue(forKey: connection) }
        socket?.disconnect(code: WebSocketCloseCode(code), reason: reason)
    }

    /// Connections currently open.
    var connectionCount: Int { lock.withLock { connections.count } }

    func stop() async {
        await server?.stop()
    }
}

/// The path part of a request target (the query is ignored).
private func requestPath(_ target: String) -> String {
    target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
}
