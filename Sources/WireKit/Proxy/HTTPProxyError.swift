/// Why a connection through an HTTP proxy (CONNECT tunnel) could not be made.
///
/// ``code`` says what kind of failure it is; the optional fields carry the details that kind has
/// (the proxy's HTTP status, realm, address). New codes and fields may be added in minor
/// releases; match codes with `default:`, or with `catch HTTPProxyError.Code.authenticationRequired`.
public struct HTTPProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of proxy failure this is. New codes may be added in minor releases; match with
    /// `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"refused"`.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The proxy answered CONNECT with a status (``HTTPProxyError/httpStatus``) other than 2xx
        /// and 407 (403: target not allowed, 502/503/504: the proxy could not reach the target,
        /// ...); ``HTTPProxyError/message`` is its reason phrase.
        public static let refused = Code(rawValue: "refused")
        /// The proxy answered 407 (or 401): it wants credentials
        /// (``HTTPProxyError/credentialsSent`` false) or refused the ones sent.
        public static let authenticationRequired = Code(rawValue: "authenticationRequired")
        /// The proxy itself (``HTTPProxyError/host``, ``HTTPProxyError/port``) could not be
        /// reached; ``HTTPProxyError/unreachableReason`` says how.
        public static let unreachable = Code(rawValue: "unreachable")
        /// The proxy closed the connection before the tunnel was established.
        public static let tunnelClosed = Code(rawValue: "tunnelClosed")
        /// The proxy's answer to CONNECT is not valid HTTP.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// No answer to CONNECT within ``HTTPProxyError/timeout``.
        public static let timedOut = Code(rawValue: "timedOut")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The failure in words, as the proxy or the transport gave it (not escaped: print
    /// ``description``, which escapes it).
    public var message: String
    /// The proxy's HTTP status, for ``Code/refused`` and ``Code/authenticationRequired``.
    public var httpStatus: Int?
    /// For ``Code/authenticationRequired``: the realm of the proxy's challenge, if it named one.
    public var realm: String?
    /// For ``Code/authenticationRequired``: whether credentials were sent (and refused).
    public var credentialsSent: Bool?
    /// For ``Code/unreachable``: the proxy's host.
    public var host: String?
    /// For ``Code/unreachable``: the proxy's port.
    public var port: Int?
    /// For ``Code/unreachable``: the transport failure that kept the proxy out of reach
    /// (``TransportError/Code/hostNotFound``, ``TransportError/Code/connectionRefused``,
    /// ``TransportError/Code/connectTimedOut`` or ``TransportError/Code/unreachable``).
    public var unreachableReason: TransportError.Code?
    /// For ``Code/timedOut`` (and an unreachable proxy whose connect timed out): the limit that ran out.
    public var timeout: Duration?

    /// A proxy error of `code`; custom transports and test doubles build them with this.
    public init(
        code: Code, message: String, httpStatus: Int? = nil, realm: String? = nil, credentialsSent: Bool? = nil,
        host: String? = nil, port: Int? = nil, unreachableReason: TransportError.Code? = nil, timeout: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.realm = realm
        self.credentialsSent = credentialsSent
        self.host = host
        self.port = port
        self.unreachableReason = unreachableReason
        self.timeout = timeout
    }

    /// What went wrong with the proxy, in words; the proxy's own text (reason phrase, realm) is
    /// escaped with `escapedForDisplay`.
    public var description: String {
        switch code {
        case .refused:
            return "the proxy refused the tunnel with HTTP \(httpStatus ?? 0)\(message.isEmpty ? "" : " \(message.escapedForDisplay)")"
        case .authenticationRequired:
            return
                (credentialsSent == true
                ? "the proxy rejected the credentials (HTTP 407/401)" : "the proxy requires authentication (HTTP 407/401); put user:password in the proxy URL")
                + (realm.map { ", realm \"\($0.escapedForDisplay)\"" } ?? "")
        case .unreachable:
            return "cannot reach the proxy \((host ?? "").escapedForDisplay) port \(port.map(String.init) ?? "?"): \(unreachableText)"
        case .tunnelClosed:
            return "the proxy closed the tunnel: \(message.escapedForDisplay)"
        case .invalidResponse:
            return "invalid answer from the proxy: \(message.escapedForDisplay)"
        case .timedOut:
            return "the proxy did not answer CONNECT within \(timeout.map { "\($0)" } ?? "the timeout")"
        default:
            return message.escapedForDisplay
        }
    }

    private var unreachableText: String {
        switch unreachableReason {
        case TransportError.Code.hostNotFound?: "host not found (\(message.escapedForDisplay))"
        case TransportError.Code.connectionRefused?: "connection refused"
        case TransportError.Code.connectTimedOut?: "no connection within \(timeout.map { "\($0)" } ?? "the timeout")"
        case TransportError.Code.unreachable?: "network unreachable"
        default: message.escapedForDisplay
        }
    }

    /// Whether `value` has code `pattern`, for `switch` and typed `catch`.
    public static func ~= (pattern: Code, value: HTTPProxyError) -> Bool {
        value.code == pattern
    }
}

extension HTTPProxyError {
    /// The proxy answered CONNECT with `status`.
    package static func refused(status: Int, reason: String) -> Self {
        Self(code: .refused, message: reason, httpStatus: status)
    }
    /// The proxy wants (other) credentials.
    package static func authenticationRequired(realm: String?, credentialsSent: Bool, status: Int = 407) -> Self {
        Self(
            code: .authenticationRequired, message: credentialsSent ? "credentials rejected" : "authentication required",
            httpStatus: status, realm: realm, credentialsSent: credentialsSent)
    }
    /// The proxy could not be reached because of `failure`.
    package static func unreachable(host: String, port: Int, failure: TransportError) -> Self {
        Self(
            code: .unreachable, message: failure.message, host: host, port: port, unreachableReason: failure.code,
            timeout: failure.timeout)
    }
    /// The proxy closed the connection early.
    package static func tunnelClosed(_ why: String) -> Self { Self(code: .tunnelClosed, message: why) }
    /// The proxy's answer is not valid HTTP.
    package static func invalidResponse(_ why: String) -> Self { Self(code: .invalidResponse, message: why) }
    /// No answer within `timeout`.
    package static func timedOut(_ timeout: Duration) -> Self {
        Self(code: .timedOut, message: "no answer to CONNECT", timeout: timeout)
    }
}

extension HTTPProxyError.Code {
    /// Whether `value` is an ``HTTPProxyError`` with code `pattern`: `catch HTTPProxyError.Code.refused`.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? HTTPProxyError)?.code == pattern
    }
}
