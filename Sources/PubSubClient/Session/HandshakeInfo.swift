/// What the server said in its handshake response, reported with the `connected` event.
public struct HandshakeInfo: Sendable, Equatable {
    /// Server-assigned socket id; new on every connection.
    public var id: String
    /// Server ping timeout in milliseconds; the client's own ping timer uses it.
    public var pingTimeout: Int64
    /// Whether the token sent in the handshake was accepted.
    public var isAuthenticated: Bool
    /// Why the token sent in the handshake was rejected, when it was.
    public var authError: RemoteError?

    /// The handshake fields as reported.
    public init(id: String, pingTimeout: Int64, isAuthenticated: Bool, authError: RemoteError?) {
        self.id = id
        self.pingTimeout = pingTimeout
        self.isAuthenticated = isAuthenticated
        self.authError = authError
    }
}
