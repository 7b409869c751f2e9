import Foundation

/// Whether the socket is authenticated (Protocol.md §9).
///
/// This set is closed: a socket is authenticated or it is not.
public enum AuthState: String, Sendable, Hashable {
    /// The server accepted a token; ``AuthStatus/token`` holds its claims.
    case authenticated
    /// No valid token.
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

    /// When the token expires: its `exp` claim (seconds since 1970), if it has one.
    public var expiry: Date? { Self.expiry(of: token) }

    /// The `exp` claim of a decoded token payload as a date.
    static func expiry(of token: JSONValue?) -> Date? {
        guard let seconds = token?["exp"]?.intValue else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
