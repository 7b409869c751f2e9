#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of the byte stream under a WebSocket: name resolution, connecting, reading,
/// writing or listening.
///
/// ``code`` says what kind of failure it is; the optional fields carry the details that kind has
/// (host and port, `errno`, the TLS or proxy error). New codes and fields may be added in minor
/// releases; match codes with `default:`, or with `catch TransportError.Code.connectionRefused`.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of transport failure this is. New codes may be added in minor releases; match
    /// with `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"connectionRefused"`.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The host name did not resolve (``TransportError/message`` is the resolver's message).
        public static let hostNotFound = Code(rawValue: "hostNotFound")
        /// Every resolved address refused the connection (nothing listens on that port).
        public static let connectionRefused = Code(rawValue: "connectionRefused")
        /// No connection was established within ``TransportError/timeout``.
        public static let connectTimedOut = Code(rawValue: "connectTimedOut")
        /// The host or network cannot be reached from here.
        public static let unreachable = Code(rawValue: "unreachable")
        /// The peer reset the connection (or it broke) while it was open.
        public static let connectionReset = Code(rawValue: "connectionReset")
        /// The listener could not bind: the address is already taken.
        public static let addressInUse = Code(rawValue: "addressInUse")
        /// Any other system call failure, with the call (``TransportError/operation``) and
        /// ``TransportError/errnoCode``.
        public static let system = Code(rawValue: "system")
        /// The transport cannot be used for this URL or configuration (e.g. `wss://` without
        /// TLS); ``TransportError/message`` says why.
        public static let unsupported = Code(rawValue: "unsupported")
        /// TLS failed: certificate verification, handshake, or no TLS library
        /// (``TransportError/tlsError`` says which).
        public static let tls = Code(rawValue: "tls")
        /// The HTTP proxy refused or could not open the tunnel, or could not be reached
        /// (``TransportError/proxyError`` says which).
        public static let proxy = Code(rawValue: "proxy")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The failure in words, as the system, resolver or caller gave it (not escaped: print
    /// ``description``, which escapes it).
    public var message: String
    /// The host the transport tried to reach or listen on, where there is one.
    public var host: String? {
        get { details?.value.host }
        set { updateDetails { $0.host = newValue } }
    }
    /// The port the transport tried to reach or listen on, where there is one.
    public var port: Int? {
        get { details?.value.port }
        set { updateDetails { $0.port = newValue } }
    }
    /// For ``Code/connectTimedOut``: the connect timeout that ran out.
    public var timeout: Duration? {
        get { details?.value.timeout }
        set { updateDetails { $0.timeout = newValue } }
    }
    /// For ``Code/system``: the system call that failed (e.g. `"socket"`).
    public var operation: String? {
        get { details?.value.operation }
        set { updateDetails { $0.operation = newValue } }
    }
    /// For ``Code/system`` (and where the system reported one): the `errno` value.
    public var errnoCode: Int32? {
        get { details?.value.errnoCode }
        set { updateDetails { $0.errnoCode = newValue } }
    }
    /// For ``Code/tls``: the TLS failure.
    public var tlsError: TLSError? {
        get { details?.value.tlsError }
        set { updateDetails { $0.tlsError = newValue } }
    }
    /// For ``Code/proxy``: the proxy failure.
    public var proxyError: HTTPProxyError? {
        get { details?.value.proxyError }
        set { updateDetails { $0.proxyError = newValue } }
    }

    /// A transport error of `code`; custom transports and test doubles build them with this.
    public init(
        code: Code, message: String, host: String? = nil, port: Int? = nil, timeout: Duration? = nil,
        operation: String? = nil, errnoCode: Int32? = nil, tlsError: TLSError? = nil, proxyError: HTTPProxyError? = nil
    ) {
        self.code = code
        self.message = message
        let details = Details(
            host: host, port: port, timeout: timeout, operation: operation, errnoCode: errnoCode, tlsError: tlsError,
            proxyError: proxyError)
        self.details = IndirectValue?(boxing: details, unlessEqualTo: Details())
    }

    /// The optional fields, kept behind one reference (`nil` when none is set), so the error is
    /// small wherever it is stored or thrown.
    private struct Details: Sendable, Hashable {
        var host: String?
        var port: Int?
        var timeout: Duration?
        var operation: String?
        var errnoCode: Int32?
        var tlsError: TLSError?
        var proxyError: HTTPProxyError?
    }

    private var details: IndirectValue<Details>?

    private mutating func updateDetails(_ body: (inout Details) -> Void) {
        details.updateBoxed(empty: Details(), body)
    }

    /// What failed, in words; the resolver's and caller's text is escaped with
    /// `escapedForDisplay`.
    public var description: String {
        let host = self.host ?? "?"
        let port = self.port.map(String.init) ?? "?"
        switch code {
        case .hostNotFound:
            return "host not found: \(host.escapedForDisplay) (\(message.escapedForDisplay))"
        case .connectionRefused:
            return "connection refused by \(host) port \(port)"
        case .connectTimedOut:
            return "could not connect to \(host) port \(port) within \(timeout.map { "\($0)" } ?? "the timeout")"
        case .unreachable:
            return "\(host) port \(port) is unreachable"
        case .connectionReset:
            return "the connection was reset by the peer"
        case .addressInUse:
            return "cannot listen on \(host) port \(port): address already in use"
        case .system:
            let errno = errnoCode ?? 0
            return "\(operation ?? "a system call") failed: \(String(cString: strerror(errno))) (errno \(errno))"
        case .tls:
            return tlsError?.description ?? message.escapedForDisplay
        case .proxy:
            return proxyError?.description ?? message.escapedForDisplay
        default:
            return message.escapedForDisplay
        }
    }

    /// Whether `value` has code `pattern`, for `switch` and typed `catch`.
    public static func ~= (pattern: Code, value: TransportError) -> Bool {
        value.code == pattern
    }
}

extension TransportError {
    /// The host name did not resolve.
    package static func hostNotFound(host: String, detail: String) -> Self {
        Self(code: .hostNotFound, message: detail, host: host)
    }
    /// Every resolved address refused the connection.
    package static func connectionRefused(host: String, port: Int) -> Self {
        Self(code: .connectionRefused, message: "connection refused", host: host, port: port)
    }
    /// No connection within `timeout`.
    package static func connectTimedOut(host: String, port: Int, timeout: Duration) -> Self {
        Self(code: .connectTimedOut, message: "connect timed out", host: host, port: port, timeout: timeout)
    }
    /// The host or network cannot be reached.
    package static func unreachable(host: String, port: Int) -> Self {
        Self(code: .unreachable, message: "unreachable", host: host, port: port)
    }
    /// The peer reset the connection.
    package static var connectionReset: Self { Self(code: .connectionReset, message: "the connection was reset by the peer") }
    /// The listener's address is taken.
    package static func addressInUse(host: String, port: Int) -> Self {
        Self(code: .addressInUse, message: "address already in use", host: host, port: port)
    }
    /// A system call failed with `errno`.
    package static func system(operation: String, errno: Int32) -> Self {
        Self(code: .system, message: "\(operation) failed", operation: operation, errnoCode: errno)
    }
    /// The transport cannot be used as configured.
    package static func unsupported(_ message: String) -> Self { Self(code: .unsupported, message: message) }
    /// TLS failed.
    package static func tls(_ error: TLSError) -> Self { Self(code: .tls, message: error.message, tlsError: error) }
    /// The proxy failed.
    package static func proxy(_ error: HTTPProxyError) -> Self { Self(code: .proxy, message: error.message, proxyError: error) }
}

extension TransportError.Code {
    /// Whether `value` is a ``TransportError`` with code `pattern`: `catch TransportError.Code.connectionRefused`.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? TransportError)?.code == pattern
    }
}
