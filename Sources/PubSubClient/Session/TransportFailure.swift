/// Why the WebSocket under a session failed, in the session's own terms: the sans-I/O core knows
/// no WebSocket library, so its driver maps the library's error to this (the WireKit driver keeps
/// WireKit's `WebSocketError` in `underlying`, see `webSocketError`).
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it was, for code that reacts to it.
    public enum Kind: Sendable, Hashable {
        /// The URL or the upgrade request is unusable (a configuration error; retrying won't help).
        case invalidRequest
        /// The host name did not resolve.
        case hostNotFound
        /// Nothing accepts connections there (refused, unreachable).
        case connectionRefused
        /// Connecting (directly or through a proxy), the upgrade or a close took too long. While
        /// connecting, the session reports it as its own connect timeout (4007).
        case timedOut
        /// TLS failed (certificate, host name, pin, handshake, no TLS library).
        case tls
        /// The HTTP proxy refused the tunnel, wanted credentials, or could not be reached.
        case proxy
        /// The server answered the upgrade with this HTTP status instead of 101.
        case upgradeRejected(status: Int)
        /// The server answered the upgrade with a redirect, which is not followed.
        case redirected(status: Int, location: String?)
        /// The server's answer to the upgrade is not a valid WebSocket handshake.
        case invalidHandshake
        /// The peer broke the WebSocket protocol (bad frame, invalid UTF-8, message too big).
        case protocolViolation
        /// The connection broke (reset, ended without a close handshake).
        case connectionLost
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The driver's explanation, fit for a log or a user.
    public var message: String
    /// The driver's own error, for detail beyond `kind` (WireKit's `WebSocketError` for the
    /// built-in driver). Not part of equality.
    public var underlying: (any Error & Sendable)?

    /// A failure of `kind`, explained by `message`, caused by the driver's `underlying` error.
    public init(_ kind: Kind, message: String, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    /// The failure in words (`message`).
    public var description: String { message }

    /// Same kind and message; the underlying error is not compared.
    public static func == (lhs: TransportFailure, rhs: TransportFailure) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message
    }
}
