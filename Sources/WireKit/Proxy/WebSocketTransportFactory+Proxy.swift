extension WebSocketTransportFactory {
    /// A transport to `url`, tunneled through `proxy` when there is one. Throws
    /// `.transport` (transport code `.unsupported`) when this factory cannot tunnel.
    func makeTransport(_ url: WebSocketURL, connectTimeout: Duration, proxy: HTTPProxy?) throws(WebSocketError) -> any Transport {
        guard let proxy else { return try makeTransport(url, connectTimeout) }
        guard let makeTunneledTransport else {
            throw .transport(.unsupported("this transport factory cannot tunnel through an HTTP proxy (use WebSocketTransportFactory.tls())"))
        }
        return try makeTunneledTransport(url, proxy, connectTimeout)
    }
}

extension WebSocketOptions {
    /// The proxy a connection to `url` goes through: `proxy`, else the environment's when
    /// `proxyFromEnvironment`, else none.
    func proxy(for url: WebSocketURL) throws(WebSocketError) -> HTTPProxy? {
        if let proxy { return proxy }
        guard proxyFromEnvironment else { return nil }
        return try HTTPProxy.fromEnvironment(for: url)
    }
}
