import Foundation

/// Failures of the broker's own API (errors the client sends back arrive as `RemoteError`).
public enum PubSubBrokerError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// The socket has not completed its handshake or has closed.
    case socketNotOpen(socketID: String)
    /// A server invoke got no answer within its ack timeout.
    case invokeTimedOut(event: String)
    /// The connection closed before a server invoke was answered.
    case connectionClosed(event: String)
    /// The listening socket could not be opened.
    case listenFailed(host: String, port: Int, reason: String)
    /// The TLS certificate chain or key could not be loaded (or TLS is unavailable).
    case tlsSetupFailed(reason: String)

    /// What failed, in words.
    public var description: String {
        switch self {
        case .socketNotOpen(let id):
            return "Socket \(id) is not open (its handshake has not completed or it has closed)"
        case .invokeTimedOut(let event):
            return "Event response for \(event) event timed out"
        case .connectionClosed(let event):
            return "Event \(event) was aborted due to a bad connection"
        case .listenFailed(let host, let port, let reason):
            return "Could not listen on \(host):\(port): \(reason)"
        case .tlsSetupFailed(let reason):
            return "Could not set up TLS: \(reason)"
        }
    }

    /// The same text as ``description``, for `LocalizedError`.
    public var errorDescription: String? { description }
}
