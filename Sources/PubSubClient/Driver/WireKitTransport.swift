import Dispatch
import Foundation
import WireKit

/// Opens SocketCluster transports with WireKit's `WebSocket`, delivering its callbacks on the
/// session queue. Close codes pass through as raw `UInt16` values (4000–4999 included).
struct WireKitTransportFactory: SessionTransportFactory {
    /// Base options (TLS transport factory, limits); headers and timeouts come per connection.
    var options: WebSocketOptions = WebSocketOptions()

    func open(url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
              onEvent: @escaping @Sendable (SessionTransportEvent) -> Void) -> any SessionTransport {
        var options = self.options
        var fields = options.headers.fields.map { ($0.name, $0.value) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.append((name, value)) }
        options.headers = HTTPHeaders(fields)
        options.connectTimeout = connectTimeout
        options.handshakeTimeout = connectTimeout
        let socket: WebSocket
        do {
            socket = try WebSocket(url: url, options: options, callbackQueue: queue)
        } catch {
            queue.async { onEvent(.closed(code: 1006, reason: error.description, error: TransportFailure(error))) }
            return FailedTransport()
        }
        let transport = WireKitTransport(socket: socket)
        socket.onOpen = { _ in onEvent(.opened) }
        socket.onText = { onEvent(.text($0)) }
        socket.onBinary = { onEvent(.binary([UInt8]($0))) }
        socket.onClose = { info in
            // A connection that failed has no close frame, so its reason is the failure's.
            let reason = info.reason.isEmpty ? info.error?.description ?? "" : info.reason
            onEvent(.closed(code: info.code.rawValue, reason: reason, error: info.error.map(TransportFailure.init)))
        }
        socket.open()
        return transport
    }
}

/// A `WebSocket` seen as a session transport.
final class WireKitTransport: SessionTransport {
    let socket: WebSocket
    init(socket: WebSocket) { self.socket = socket }

    func send(text: String) {
        // A write on a socket that is already closing fails; its close event follows and the
        // session fails the affected calls then.
        try? socket.write(text: text)
    }

    func close(code: UInt16, reason: String) {
        socket.onOpen = nil
        socket.onText = nil
        socket.onBinary = nil
        socket.onClose = nil
        socket.disconnect(code: WebSocketCloseCode(code), reason: reason)
    }

    func closed() async -> WebSocketCloseInfo? { await socket.closed }
}

/// Stands in for a WebSocket that could not even be created (its close event is already queued).
final class FailedTransport: SessionTransport {
    func send(text: String) {}
    func close(code: UInt16, reason: String) {}
    func closed() async -> WebSocketCloseInfo? { nil }
}

extension TransportFailure {
    /// WireKit's error in the session's terms; the original stays in `underlying`.
    init(_ error: WebSocketError) {
        self.init(Self.kind(of: error), message: error.description, underlying: error)
    }

    /// WireKit's typed reason when the WireKit driver reported this failure, else nil.
    public var webSocketError: WebSocketError? { underlying as? WebSocketError }

    static func kind(of error: WebSocketError) -> Kind {
        switch error {
        case .invalidURL, .invalidRequest: return .invalidRequest
        case .transport(let failure):
            switch failure {
            case .hostNotFound: return .hostNotFound
            case .connectionRefused, .unreachable, .addressInUse: return .connectionRefused
            case .connectTimedOut: return .timedOut
            case .tls: return .tls
            case .unsupported: return .invalidRequest
            case .connectionReset, .system: return .connectionLost
            }
        case .timedOut: return .timedOut
        case .tls: return .tls
        case .handshakeRejected(let status, _, _): return .upgradeRejected(status: status)
        case .redirected(let status, let location, _): return .redirected(status: status, location: location)
        case .invalidHandshakeResponse, .invalidUpgradeRequest: return .invalidHandshake
        case .protocolViolation, .invalidUTF8, .messageTooBig: return .protocolViolation
        case .connectionClosed, .closed, .notOpen: return .connectionLost
        }
    }
}
