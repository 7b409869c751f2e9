/// What the broker knows about one socket at one moment (a copy; it does not change afterwards).
public struct BrokerSocketInfo: Sendable, Hashable {
    /// The socket id sent in the handshake response (20 URL-safe base64 characters).
    public var id: String
    /// The verified payload of the socket's auth token, when it is authenticated.
    public var authToken: [String: JSONValue]?
    /// The signed JWT the socket is authenticated with.
    public var signedAuthToken: String?

    /// Whether the socket currently holds a valid auth token.
    public var isAuthenticated: Bool { authToken != nil }

    /// Creates a snapshot; used by the broker and by tests of hooks.
    public init(id: String, authToken: [String: JSONValue]? = nil, signedAuthToken: String? = nil) {
        self.id = id
        self.authToken = authToken
        self.signedAuthToken = signedAuthToken
    }
}
