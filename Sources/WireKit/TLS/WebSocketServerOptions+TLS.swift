extension WebSocketServerOptions {
    /// Serves `wss://`: every accepted connection does a server-side TLS handshake with this
    /// identity before the WebSocket upgrade. The certificate and key are loaded and checked here.
    /// - Parameter handshakeTimeout: limit for a client's TLS handshake (seconds count from accept).
    /// - Throws: `TLSError.invalidConfiguration` (unreadable PEM, key not matching the certificate)
    ///   or `TLSError.unavailable` (no TLS library; Apple platforms).
    public mutating func useTLS(
        _ configuration: TLSServerConfiguration, handshakeTimeout: Duration = .seconds(10)
    ) throws(TLSError) {
        useTLS(try TLSServerIdentity(configuration), handshakeTimeout: handshakeTimeout)
    }

    /// Serves `wss://` with an identity already loaded (one identity can serve several servers).
    public mutating func useTLS(_ identity: TLSServerIdentity, handshakeTimeout: Duration = .seconds(10)) {
        let seconds = handshakeTimeout.wireKitSeconds
        acceptedTransport = { accepted in
            TLSTransport(server: accepted, identity: identity, handshakeTimeout: seconds)
        }
    }
}
