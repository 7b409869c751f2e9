extension WebSocketTransportFactory {
    /// `ws://` over plain TCP, `wss://` over TLS (OpenSSL on Linux, Network.framework on Apple
    /// platforms) verified as `configuration` says: SNI and the certificate check use the URL host.
    /// - Parameters:
    ///   - configuration: trust roots, pins and protocol versions for `wss://`.
    ///   - handshakeTimeout: limit for the TLS handshake once TCP is connected.
    public static func tls(
        _ configuration: TLSConfiguration = TLSConfiguration(), handshakeTimeout: Duration = .seconds(10)
    ) -> WebSocketTransportFactory {
        WebSocketTransportFactory { url, connectTimeout throws(WebSocketError) in
            guard url.isSecure else {
                return TCPTransport(host: url.host, port: url.port, connectTimeout: connectTimeout)
            }
            #if canImport(Network) && !canImport(Glibc)
            return NetworkTLSTransport(
                host: url.host, port: url.port, connectTimeout: connectTimeout,
                handshakeTimeout: handshakeTimeout, configuration: configuration)
            #else
            return TLSTransport(
                host: url.host, port: url.port, connectTimeout: connectTimeout,
                handshakeTimeout: handshakeTimeout, configuration: configuration)
            #endif
        } tunneled: { url, proxy, connectTimeout throws(WebSocketError) in
            let tunnel = HTTPProxyTransport(host: url.host, port: url.port, proxy: proxy, connectTimeout: connectTimeout)
            guard url.isSecure else { return tunnel }
            #if canImport(Glibc)
            // TLS to the origin inside the tunnel: SNI and verification use the URL's host.
            return TLSTransport(
                wrapping: tunnel, host: url.host, configuration: configuration,
                handshakeTimeout: handshakeTimeout)
            #else
            throw .transport(.unsupported("wss:// through an HTTP proxy is not supported on this platform yet"))
            #endif
        }
    }
}
