/// What the server said in its handshake response (socket id, ping timeout, auth verdict),
/// reported with the `connected` event and returned by `connect()`.
///
/// The client builds it from the wire answer; it has no public initializer, so it can gain
/// client-side facts (a negotiated version, the URL) without breaking anyone.
public struct HandshakeInfo: Sendable, Hashable {
    /// Server-assigned socket id, new on every connection.
    public let id: String
    /// How long the server waits for a ping answer before closing the connection; the client's
    /// ping timer runs for the same span.
    public let pingTimeout: Duration
    /// Whether the token sent in the handshake was accepted.
    public let isAuthenticated: Bool
    /// Why the token was rejected, when one was sent and rejected.
    public let authError: RemoteError?

    /// The facts of the wire answer `response`.
    init(_ response: HandshakeResponse) {
        id = response.id
        pingTimeout = .milliseconds(response.pingTimeout)
        isAuthenticated = response.isAuthenticated
        authError = response.authError
    }
}
