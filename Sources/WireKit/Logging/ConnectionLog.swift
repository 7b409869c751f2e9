/// What one WebSocket connection logs, with its context: a process-wide connection number, the
/// role, and the host and port a client connects to (or the address a server accepted). The
/// drivers call it from their lifecycle and error paths only (connecting, connected, open,
/// closed, a write refused), never per message; with the sink off each call is one comparison
/// and nothing is built. The peer's text (a close reason, a `Location`, a subprotocol) is
/// escaped with `escapedForDisplay` as the record is built; error descriptions escape it already.
package struct ConnectionLog: Sendable {
    package let sink: LogSink
    /// What the records name, kept only while the sink is on: a connection holds its log twice
    /// (connection and driver), and with the sink off this costs a pointer instead of ~100 bytes.
    private let context: Context?

    private final class Context: Sendable {
        let connection: UInt64
        let role: WebSocketRole
        let host: String?
        let port: Int?
        let proxy: String?
        let peer: String?

        init(connection: UInt64, role: WebSocketRole, host: String?, port: Int?, proxy: String?, peer: String?) {
            self.connection = connection
            self.role = role
            self.host = host
            self.port = port
            self.proxy = proxy
            self.peer = peer
        }
    }

    /// Numbered from 1 per process when the sink is on; 0 when it is off.
    package var connection: UInt64 { context?.connection ?? 0 }
    var role: WebSocketRole { context?.role ?? .client }
    /// Client role: the URL's host and port, and the proxy tunnelled through.
    var host: String? { context?.host }
    var port: Int? { context?.port }
    var proxy: String? { context?.proxy }
    /// Server role: the client's address.
    var peer: String? { context?.peer }

    /// Logs nothing.
    package static let off = ConnectionLog(sink: .off, role: .client)

    private init(
        sink: LogSink, role: WebSocketRole, host: String? = nil, port: Int? = nil, proxy: String? = nil,
        peer: String? = nil
    ) {
        self.sink = sink
        self.context =
            sink.isOn
            ? Context(connection: Self.counter.next(), role: role, host: host, port: port, proxy: proxy, peer: peer) : nil
    }

    /// A client connection to `url`, through `proxy` when set.
    package init(sink: LogSink, client url: WebSocketURL, proxy: @autoclosure () -> HTTPProxy?) {
        self.init(
            sink: sink, role: .client, host: url.host, port: url.port,
            proxy: sink.isOn ? proxy().map { "\($0.host):\($0.port)" } : nil)
    }

    /// A server connection accepted from `peer`.
    package init(sink: LogSink, serverPeer peer: @autoclosure () -> String?) {
        self.init(sink: sink, role: .server, peer: sink.isOn ? peer() : nil)
    }

    private static let counter = ConnectionCounter()

    /// The connection's metadata plus `extra`.
    package func metadata(_ extra: [String: String] = [:]) -> [String: String] {
        var metadata = extra
        metadata["connection"] = String(connection)
        metadata["role"] = role == .client ? "client" : "server"
        if let host { metadata["host"] = host }
        if let port { metadata["port"] = String(port) }
        if let peer { metadata["peer"] = peer }
        return metadata
    }

    // MARK: Lifecycle

    /// A client starts connecting, directly or through its proxy; a server starts reading an
    /// accepted connection.
    func connecting() {
        if role == .server { return sink.log(.debug, .transport, "accepted", metadata: metadata()) }
        sink.log(.debug, .transport, "connecting", metadata: metadata(proxy.map { ["proxy": $0] } ?? [:]))
    }

    /// A client's byte stream is up (TCP, and TLS when the transport has it).
    func transportConnected() {
        guard role == .client else { return }
        sink.log(.debug, .transport, "connected", metadata: metadata())
    }

    /// The opening handshake succeeded.
    func opened(_ info: WebSocketHandshakeInfo) {
        sink.log(.debug, .webSocket, "open", metadata: metadata(info.subprotocol.map { ["subprotocol": $0.escapedForDisplay] } ?? [:]))
    }

    /// A non-async write was refused because the send buffer is full.
    func sendBufferFull(buffered: Int, limit: Int) {
        sink.log(
            .notice, .webSocket, "write refused: send buffer full",
            metadata: metadata(["buffered": String(buffered), "limit": String(limit)]))
    }

    /// The connection is over: a clean close at debug, a failure at the level and in the
    /// subsystem of what failed, with the close code sent (`code`) and the reason.
    func closed(_ info: WebSocketCloseInfo) {
        guard sink.isOn else { return }
        let code = String(info.code.rawValue)
        guard let error = info.error else {
            return sink.log(
                .debug, .webSocket, "closed",
                metadata: metadata(["code": code, "reason": info.reason.escapedForDisplay, "clean": String(info.wasClean)]))
        }
        if error.code == .transport, let failure = error.transportError { return transportFailed(failure) }
        if error.code == .tls, let failure = error.tlsError { return tlsFailed(failure) }
        let status = String(error.httpStatus ?? 0)
        switch error.code {
        case .handshakeRejected:
            sink.log(.warning, .webSocket, "handshake rejected", metadata: metadata(["status": status]))
        case .redirected:
            sink.log(
                .warning, .webSocket, "handshake redirected (not followed)",
                metadata: metadata(["status": status, "location": error.location?.escapedForDisplay ?? ""]))
        case .invalidHandshakeResponse:
            sink.log(.error, .webSocket, "invalid handshake response", metadata: metadata(["reason": error.message.escapedForDisplay]))
        case .invalidUpgradeRequest:
            sink.log(
                .notice, .webSocket, "upgrade request refused",
                metadata: metadata(["status": status, "reason": error.message.escapedForDisplay]))
        case .protocolViolation:
            sink.log(
                .error, .webSocket, "protocol violation by the peer",
                metadata: metadata(["code": code, "reason": error.violation?.description ?? error.message.escapedForDisplay]))
        case .invalidUTF8:
            sink.log(
                .error, .webSocket, "invalid UTF-8 from the peer", metadata: metadata(["code": code, "reason": error.message.escapedForDisplay]))
        case .messageTooBig:
            sink.log(
                .notice, .webSocket, "message too big",
                metadata: metadata(["code": code, "size": String(error.size ?? 0), "limit": String(error.limit ?? 0)]))
        case .partialMessageBudgetExceeded:
            sink.log(
                .notice, .webSocket, "unfinished-message budget exceeded",
                metadata: metadata(["code": code, "size": String(error.size ?? 0), "limit": String(error.limit ?? 0)]))
        case .timedOut:
            sink.log(
                .warning, .webSocket, "timed out",
                metadata: metadata(["code": code, "reason": error.timeout?.description ?? error.message.escapedForDisplay]))
        case .connectionClosed:
            sink.log(
                .notice, .webSocket, "connection lost without a close handshake",
                metadata: metadata(["code": code, "reason": error.message.escapedForDisplay]))
        default:
            sink.log(.warning, .webSocket, "failed", metadata: metadata(["code": code, "reason": error.description]))
        }
    }

    private func transportFailed(_ failure: TransportError) {
        let message: String, outcome: String
        if failure.code == .tls, let tls = failure.tlsError { return tlsFailed(tls) }
        switch failure.code {
        case .proxy:
            return sink.log(.warning, .transport, "proxy failed", metadata: metadata(["reason": failure.description]))
        case .hostNotFound: (message, outcome) = ("host not found", "host-not-found")
        case .connectionRefused: (message, outcome) = ("connection refused", "refused")
        case .connectTimedOut: (message, outcome) = ("connect timed out", "timed-out")
        case .unreachable: (message, outcome) = ("network unreachable", "unreachable")
        case .connectionReset: (message, outcome) = ("connection reset", "reset")
        default: (message, outcome) = ("connection failed", "failed")
        }
        sink.log(.warning, .transport, message, metadata: metadata(["outcome": outcome, "reason": failure.description]))
    }

    /// `reason` is the library's description, which carries OpenSSL's reason where it gave one.
    private func tlsFailed(_ failure: TLSError) {
        sink.log(.error, .tls, "TLS failed", metadata: metadata(["reason": failure.description]))
    }
}

extension LogSink {
    /// Whether any record would be written (a sink is set).
    package var isOn: Bool { write != nil }
}

extension WebSocket {
    /// The number this connection's records carry as `connection` (0 when its sink is off), so
    /// that a layer above can link its own records to them.
    package var logConnection: UInt64 { connection.log.connection }
}

extension WebSocketConnectionDriver {
    /// The number this connection's records carry as `connection` (0 when its sink is off).
    package var logConnection: UInt64 { log.connection }
}

/// Hands out connection numbers. `@unchecked Sendable`: `last` is guarded by `lock`.
private final class ConnectionCounter: @unchecked Sendable {
    private let lock = WireKitLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
