#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of the byte stream under a WebSocket: name resolution, connecting, reading,
/// writing or listening.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host name did not resolve (`detail` is the resolver's message).
    case hostNotFound(host: String, detail: String)
    /// Every resolved address refused the connection (nothing listens on that port).
    case connectionRefused(host: String, port: Int)
    /// No connection was established within the timeout (seconds).
    case connectTimedOut(host: String, port: Int, seconds: Double)
    /// The host or network cannot be reached from here.
    case unreachable(host: String, port: Int)
    /// The peer reset the connection (or it broke) while it was open.
    case connectionReset
    /// The listener could not bind: the address is already taken.
    case addressInUse(host: String, port: Int)
    /// Any other system call failure, with the call and `errno`.
    case system(operation: String, errno: Int32)
    /// The transport cannot be used for this URL or configuration (e.g. `wss://` without TLS).
    case unsupported(String)
    /// TLS failed: certificate verification, handshake, or no TLS library (see `TLSError`).
    case tls(TLSError)
    /// The HTTP proxy refused or could not open the tunnel, or could not be reached (see `HTTPProxyError`).
    case proxy(HTTPProxyError)

    /// What failed, in words.
    public var description: String {
        switch self {
        case .hostNotFound(let host, let detail):
            return "host not found: \(host.escapedForDisplay) (\(detail.escapedForDisplay))"
        case .connectionRefused(let host, let port):
            return "connection refused by \(host) port \(port)"
        case .connectTimedOut(let host, let port, let seconds):
            return "could not connect to \(host) port \(port) within \(seconds) s"
        case .unreachable(let host, let port):
            return "\(host) port \(port) is unreachable"
        case .connectionReset:
            return "the connection was reset by the peer"
        case .addressInUse(let host, let port):
            return "cannot listen on \(host) port \(port): address already in use"
        case .system(let operation, let code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .unsupported(let message):
            return message.escapedForDisplay
        case .tls(let error):
            return error.description
        case .proxy(let error):
            return error.description
        }
    }
}
