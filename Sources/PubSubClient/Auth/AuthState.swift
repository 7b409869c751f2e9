/// Whether the socket is authenticated (Protocol.md §9).
public enum AuthState: String, Sendable, Hashable {
    case authenticated
    case unauthenticated
}

/// The client's current authentication: state, signed token and its decoded JWT payload.
/// The payload is decoded without verifying the signature (Protocol.md §9), so it is informational.
public struct AuthStatus: Sendable, Equatable {
    /// Authenticated or not.
    public var state: AuthState
    /// The signed JWT the server accepted, while authenticated.
    public var signedToken: String?
    /// The JWT payload decoded from `signedToken` (a string if it is not JSON).
    public var token: JSONValue?

    /// Not authenticated, no token.
    public static let unauthenticated = AuthStatus(state: .unauthenticated, signedToken: nil, token: nil)

    /// The token's `exp` claim in seconds since 1970, if it has one.
    public var expiry: Int64? { token?["exp"]?.intValue }
}
