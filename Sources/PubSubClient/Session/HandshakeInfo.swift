/// What the server said in its handshake response, reported with the `connected` event: the
/// protocol's own `HandshakeResponse` (socket id, ping timeout in milliseconds, auth verdict).
public typealias HandshakeInfo = HandshakeResponse
