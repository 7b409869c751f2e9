/// Why the WebSocket under a session failed, in the session's own terms: the sans-I/O core knows
/// no WebSocket library, so its driver maps the library's error to this (the WireKit driver keeps
/// WireKit's `WebSocketError` in `underlying`, see `webSocketError`).
///
/// New kinds and fields may be added in minor releases; match kinds with `default:`.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it was, for code that reacts to it. An open set of constants: new
    /// kinds may be added in minor releases; match with `default:`.
    ///
    /// Switch with `switch failure.kind { case .tls: ... default: ... }`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, e.g. `"hostNotFound"`.
        public let rawValue: String

        /// The kind named `rawValue` (any string: kinds of this library or a custom driver's).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The URL or the upgrade request is unusable (a configuration error; retrying won't help).
        public static let invalidRequest = Kind(rawValue: "invalidRequest")
        /// The host name did not resolve.
        public static let hostNotFound = Kind(rawValue: "hostNotFound")
        /// Nothing accepts connections there (refused, unreachable).
        public static let connectionRefused = Kind(rawValue: "connectionRefused")
        /// Connecting (directly or through a proxy), the upgrade or a close took too long. While
        /// connecting, the session reports it as its own connect timeout (4007).
        public static let timedOut = Kind(rawValue: "timedOut")
        /// TLS failed (certificate, host name, pin, handshake, no TLS library).
        public static let tls = Kind(rawValue: "tls")
        /// The HTTP proxy refused the tunnel, wanted credentials, or could not be reached.
        public static let proxy = Kind(rawValue: "proxy")
        /// The server answered the upgrade with an HTTP status other than 101 (in
        /// ``TransportFailure/httpStatus``).
        public static let upgradeRejected = Kind(rawValue: "upgradeRejected")
        /// The server answered the upgrade with a redirect, which is not followed (the status in
        /// ``TransportFailure/httpStatus``, the target in ``TransportFailure/location``).
        public static let redirected = Kind(rawValue: "redirected")
        /// The server's answer to the upgrade is not a valid WebSocket handshake.
        public static let invalidHandshake = Kind(rawValue: "invalidHandshake")
        /// The peer broke the WebSocket protocol (bad frame, invalid UTF-8, message too big).
        public static let protocolViolation = Kind(rawValue: "protocolViolation")
        /// The connection broke (reset, ended without a close handshake).
        public static let connectionLost = Kind(rawValue: "connectionLost")

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The driver's explanation, fit for a log or a user.
    public var message: String
    /// The HTTP status the server answered the upgrade with, for ``Kind/upgradeRejected`` and
    /// ``Kind/redirected``; nil otherwise.
    public var httpStatus: Int?
    /// The redirect target (the `Location` header, as received) for ``Kind/redirected``; nil
    /// otherwise or when the server sent none.
    public var location: String?
    /// The driver's own error, for detail beyond `kind` (WireKit's `WebSocketError` for the
    /// built-in driver). Not part of equality.
    public var underlying: (any Error & Sendable)?

    /// A failure of `kind`, explained by `message`, with the HTTP status and redirect target
    /// when the server answered the upgrade, caused by the driver's `underlying` error. New
    /// fields come as trailing defaulted parameters.
    public init(
        _ kind: Kind, message: String, httpStatus: Int? = nil, location: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.kind = kind
        self.message = message
        self.httpStatus = httpStatus
        self.location = location
        self.underlying = underlying
    }

    /// The failure in words (`message`).
    public var description: String { message }

    /// Same kind, message, HTTP status and location; the underlying error is not compared.
    public static func == (lhs: TransportFailure, rhs: TransportFailure) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.httpStatus == rhs.httpStatus
            && lhs.location == rhs.location
    }
}
