/// The server's verdict on `authenticate(_:)` (Protocol.md §9).
public struct AuthenticationResult: Sendable, Equatable {
    /// Whether the token was accepted.
    public var isAuthenticated: Bool
    /// Why not, for soft refusals (e.g. `AuthTokenNotBeforeError`).
    public var authError: RemoteError?

    /// A verdict as the server gave it.
    public init(isAuthenticated: Bool, authError: RemoteError?) {
        self.isAuthenticated = isAuthenticated
        self.authError = authError
    }

    init(_ data: JSONValue?) {
        isAuthenticated = data?["isAuthenticated"]?.boolValue ?? false
        authError = data?["authError"].flatMap { $0.isNull ? nil : RemoteError(hydrating: $0) }
    }
}
