/// Why a connection through an HTTP proxy (CONNECT tunnel) could not be made.
public enum HTTPProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The proxy answered CONNECT with a status other than 2xx and 407 (403: target not allowed,
    /// 502/503/504: the proxy could not reach the target, ...).
    case refused(status: Int, reason: String)
    /// The proxy answered 407 (or 401): it wants credentials (`credentialsSent` false) or refused the ones sent.
    case authenticationRequired(realm: String?, credentialsSent: Bool)
    /// The proxy itself could not be reached; `reason` says how.
    case unreachable(host: String, port: Int, reason: UnreachableReason)
    /// The proxy closed the connection before the tunnel was established.
    case tunnelClosed(String)
    /// The proxy's answer to CONNECT is not valid HTTP.
    case invalidResponse(String)
    /// No answer to CONNECT within the limit (seconds).
    case timedOut(seconds: Double)

    /// What went wrong with the proxy, in words; the proxy's own text (reason phrase, realm) is
    /// escaped with `escapedForDisplay`.
    public var description: String {
        switch self {
        case .refused(let status, let reason):
            "the proxy refused the tunnel with HTTP \(status)\(reason.isEmpty ? "" : " \(reason.escapedForDisplay)")"
        case .authenticationRequired(let realm, let credentialsSent):
            (credentialsSent
                ? "the proxy rejected the credentials (HTTP 407/401)" : "the proxy requires authentication (HTTP 407/401); put user:password in the proxy URL")
                + (realm.map { ", realm \"\($0.escapedForDisplay)\"" } ?? "")
        case .unreachable(let host, let port, let reason):
            "cannot reach the proxy \(host.escapedForDisplay) port \(port): \(reason)"
        case .tunnelClosed(let why):
            "the proxy closed the tunnel: \(why.escapedForDisplay)"
        case .invalidResponse(let why):
            "invalid answer from the proxy: \(why.escapedForDisplay)"
        case .timedOut(let seconds):
            "the proxy did not answer CONNECT within \(seconds) s"
        }
    }
}

extension HTTPProxyError {
    /// Why the proxy could not be reached: the transport's failure, without nesting a
    /// `TransportError` in an error that `TransportError` itself carries.
    public enum UnreachableReason: Sendable, Hashable, CustomStringConvertible {
        /// The proxy's host name did not resolve (`detail` is the resolver's message).
        case hostNotFound(detail: String)
        /// Nothing accepts connections at the proxy's address.
        case connectionRefused
        /// Connecting to the proxy took longer than the connect timeout (seconds).
        case connectTimedOut(seconds: Double)
        /// No route to the proxy's address.
        case networkUnreachable

        /// The reason in words.
        public var description: String {
            switch self {
            case .hostNotFound(let detail): "host not found (\(detail.escapedForDisplay))"
            case .connectionRefused: "connection refused"
            case .connectTimedOut(let seconds): "no connection within \(seconds) s"
            case .networkUnreachable: "network unreachable"
            }
        }
    }
}
