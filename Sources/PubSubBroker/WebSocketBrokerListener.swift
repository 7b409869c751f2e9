import Foundation
import WireKit

/// The broker's network side on WireKit's `WebSocketServer`: each upgraded connection on the
/// configured path becomes a broker connection. Every connection runs on the engine's serial
/// queue as a bare `WebSocketConnectionDriver` (WireKit's package face), so a frame reaches
/// `BrokerEngine` and its answer reaches the connection's write buffer without a queue hop; the
/// frames one engine step queues for a connection leave in one write at `flush`.
///
/// The I/O limits live here: `maxOutboundBufferedBytes` (checked before every write: a connection
/// over it is handed to `BrokerEngine.slowConsumer` and gets nothing more), `maxConnections`
/// (checked as a connection opens) and `maxPayload` (WireKit's `maxMessageSize`).
final class WebSocketBrokerListener: BrokerTransport, BrokerListener, @unchecked Sendable {
    // `connections` and `unflushed` are confined to `queue` (the engine's); `server` and `port`
    // are set once in `start` before any connection.
    private let queue: DispatchQueue
    private var connections: [BrokerConnectionID: WebSocketConnectionDriver] = [:]
    /// Drivers written to since the last `flush`.
    private var unflushed: [WebSocketConnectionDriver] = []
    private var server: WebSocketServer?
    private(set) var port = 0
    private let maxOutboundBufferedBytes: Int
    private let maxConnections: Int?
    /// Held strongly: a weak reference would give the engine a side table, making every retain
    /// and release of it slow (the engine holds this listener weakly, so there is no cycle).
    private let engine: BrokerEngine
    private let log: BrokerLog

    private init(maxOutboundBufferedBytes: Int, maxConnections: Int?, engine: BrokerEngine, log: BrokerLog) {
        self.maxOutboundBufferedBytes = maxOutboundBufferedBytes
        self.maxConnections = maxConnections
        self.engine = engine
        self.log = log
        queue = engine.queue
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
        let httpRequestHandler = options.httpRequestHandler
        serverOptions.acceptRequest = { request in decide(request, path: path, httpRequestHandler: httpRequestHandler) }
        serverOptions.tls = tls
        serverOptions.logSink = options.logSink
        let listener = WebSocketBrokerListener(
            maxOutboundBufferedBytes: options.maxOutboundBufferedBytes, maxConnections: options.maxConnections,
            engine: engine, log: BrokerLog(options: options))
        engine.attach(transport: listener)
        do {
            let server = try WebSocketServer.start(host: host, port: port, options: serverOptions, queue: engine.queue) {
                [weak listener] driver in
                listener?.handler(for: driver) ?? { _ in }
            }
            listener.server = server
            listener.port = server.port
        } catch {
            if error.code == .tls, let failure = error.tlsError {
                throw PubSubBrokerError.tlsSetupFailed(reason: failure.description, underlying: error)
            }
            throw PubSubBrokerError.listenFailed(host: host, port: port, reason: error.description, underlying: error)
        }
        return listener
    }

    /// What one connection's events do (on `queue`): it becomes a broker connection once
    /// upgraded, its messages go to the engine, its end is reported. The engine is held strongly
    /// until the connection ends (the server then drops the handler), so a message costs no weak
    /// load; the listener is only looked up when the connection opens or closes.
    private func handler(for driver: WebSocketConnectionDriver) -> (WebSocketEvent) -> Void {
        let engine = engine
        var connection: BrokerConnectionID?
        return { [weak self] event in
            switch event {
            case .opened:
                connection = self?.opened(driver, engine: engine)
            case .text(let text):
                if let connection { engine.received(text: text, from: connection) }
            case .binary(let data):
                if let connection { engine.received(binary: Array(data), from: connection) }
            case .closed(let info):
                guard let closed = connection else { return }
                connection = nil
                self?.connections[closed] = nil
                engine.connectionClosed(closed, code: info.code.rawValue, reason: info.reason)
            case .ping, .pong, .pingCompleted, .pingTimedOut:
                break
            }
        }
    }

    /// Registers an upgraded connection, or closes it with 1013 over `maxConnections`.
    private func opened(_ driver: WebSocketConnectionDriver, engine: BrokerEngine) -> BrokerConnectionID? {
        if let maxConnections, connections.count >= maxConnections {
            log.maxConnectionsReached(limit: maxConnections, webSocket: driver.logConnection)
            _ = try? driver.perform { machine, now in
                machine.close(
                    code: WebSocketCloseCode(BrokerOptions.tooManyConnectionsCloseCode.rawValue),
                    reason: "Too many connections", now: now)
            }
            return nil
        }
        let connection = engine.connectionOpened()
        log.opened(connection, webSocket: driver.logConnection)
        connections[connection] = driver
        return connection
    }

    func send(_ utf8: [UInt8], on connection: BrokerConnectionID) {
        enqueue(utf8, binary: false, on: connection)
    }

    func sendBinary(_ bytes: [UInt8], on connection: BrokerConnectionID) {
        enqueue(bytes, binary: true, on: connection)
    }

    private func enqueue(_ utf8: [UInt8], binary: Bool, on connection: BrokerConnectionID) {
        guard let driver = connections[connection] else { return }
        // One message always fits an empty buffer, so a message larger than the limit still
        // reaches a reader that keeps up.
        let buffered = driver.bufferedAmount
        if buffered > 0, buffered + utf8.count > maxOutboundBufferedBytes {
            // A slow consumer: nothing more is written; what is buffered goes out before the
            // close frame if the peer reads again, else the close timeout ends the connection.
            connections[connection] = nil
            let reason = "Slow consumer: more than \(maxOutboundBufferedBytes) bytes waiting to be written"
            _ = try? driver.perform { machine, now in
                machine.close(code: WebSocketCloseCode(BrokerOptions.slowConsumerCloseCode.rawValue), reason: reason, now: now)
            }
            engine.slowConsumer(connection, bufferedBytes: buffered, reason: reason)
            return
        }
        // A write to a closing connection fails; the close itself reaches the engine as `.closed`.
        do {
            if binary { try driver.sendBinary(utf8) } else { try driver.sendText(trustedUTF8: utf8) }
        } catch {
            return
        }
        if unflushed.last !== driver { unflushed.append(driver) }
    }

    func flush() {
        while let driver = unflushed.popLast() {
            driver.flush()
        }
    }

    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        guard let driver = connections.removeValue(forKey: connection) else { return }
        _ = try? driver.perform { machine, now in machine.close(code: WebSocketCloseCode(code), reason: reason, now: now) }
    }

    /// Connections currently open.
    var connectionCount: Int { queue.sync { connections.count } }

    /// Every open connection's bytes waiting to be written (for tests).
    var bufferedAmounts: [Int] { queue.sync { connections.values.map(\.bufferedAmount) } }

    func stop() async {
        await server?.stop()
    }
}

/// What the broker answers to `request`: upgrades on `path` go through; socketcluster-server
/// (ws) compares the path exactly and refuses upgrades elsewhere with HTTP 400, as this does.
/// Plain HTTP requests go to `httpRequestHandler` first, then get the broker's own answers:
/// `/health-check` 200, other paths 404, methods other than GET and HEAD 405.
func decide(
    _ request: HTTPRequestHead, path: String, httpRequestHandler: (@Sendable (HTTPRequestHead) -> PlainHTTPResponse?)?
) -> WebSocketUpgradeDecision {
    let requestPath = requestPath(request.target)
    // A request on the WebSocket path goes to validation even without `Upgrade` (400 as before).
    if requestPath == path { return .accept }
    if request.isWebSocketUpgrade { return .refuse(status: 400) }
    if let response = httpRequestHandler?(request) { return .respond(response) }
    guard request.method == "GET" || request.method == "HEAD" else {
        return .respond(PlainHTTPResponse(status: 405, headers: ["Allow": "GET, HEAD"], text: "Method Not Allowed\n"))
    }
    if requestPath == healthCheckPath { return .respond(PlainHTTPResponse(status: 200, text: "OK")) }
    return .respond(PlainHTTPResponse(status: 404, text: "Not Found\n"))
}

/// The path a health check asks for (scc-broker's and socketcluster-server's).
let healthCheckPath = "/health-check"

/// The path part of a request target (the query is ignored).
private func requestPath(_ target: String) -> String {
    target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
}
