/// Makes the byte stream a client `WebSocket` runs over: the seam where TLS plugs in.
///
/// A `WebSocket` calls its factory once, when it is created (on the creating thread); the
/// transport starts when the socket connects, and an error thrown here is what `connect()`
/// (or the callback face's `onClose`) reports.
public struct WebSocketTransportFactory: Sendable {
    /// Returns an unstarted transport to `url`'s host and port that connects within
    /// `connectTimeout`, or throws a `WebSocketError` saying why it cannot.
    public let makeTransport: @Sendable (_ url: WebSocketURL, _ connectTimeout: Duration) throws(WebSocketError) -> any Transport

    /// Returns an unstarted transport to `url` through an HTTP proxy's CONNECT tunnel; `nil` for
    /// factories that cannot tunnel (see `WebSocketOptions.proxy`).
    public let makeTunneledTransport: (@Sendable (_ url: WebSocketURL, _ proxy: HTTPProxy, _ connectTimeout: Duration) throws(WebSocketError) -> any Transport)?

    /// A factory that calls `makeTransport`, and `makeTunneledTransport` for connections through a proxy.
    public init(
        _ makeTransport: @escaping @Sendable (_ url: WebSocketURL, _ connectTimeout: Duration) throws(WebSocketError) -> any Transport,
        tunneled makeTunneledTransport: (
            @Sendable (_ url: WebSocketURL, _ proxy: HTTPProxy, _ connectTimeout: Duration) throws(WebSocketError) -> any Transport
        )? = nil
    ) {
        self.makeTransport = makeTransport
        self.makeTunneledTransport = makeTunneledTransport
    }

    /// Plain TCP only: `wss://` throws `.transport` with a transport error of code `.unsupported`.
    public static let plainTCP = WebSocketTransportFactory { url, connectTimeout throws(WebSocketError) in
        guard !url.isSecure else {
            throw .transport(.unsupported("wss:// needs a TLS transport and this factory has none (use WebSocketTransportFactory.tls())"))
        }
        return TCPTransport(host: url.host, port: url.port, connectTimeout: connectTimeout)
    } tunneled: { url, proxy, connectTimeout throws(WebSocketError) in
        guard !url.isSecure else {
            throw .transport(.unsupported("wss:// needs a TLS transport and this factory has none (use WebSocketTransportFactory.tls())"))
        }
        return HTTPProxyTransport(host: url.host, port: url.port, proxy: proxy, connectTimeout: connectTimeout)
    }

    /// What `WebSocketOptions` uses unless told otherwise: TCP for `ws://`, TLS verified
    /// against the system's trust store for `wss://`.
    public static var `default`: WebSocketTransportFactory { .tls() }
}

extension Duration {
    /// This duration in seconds, as Dispatch and the transports take it.
    var wireKitSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
