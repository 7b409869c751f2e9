/// The `data` of the server's answer to `#authenticate` (spec §7.4).
public struct AuthenticateResponse: Sendable, Hashable {
    /// Whether the server accepted the token.
    public var isAuthenticated: Bool
    /// Why it did not (e.g. `AuthTokenNotBeforeError`), when it says.
    public var authError: RemoteError?

    /// A response to send or compare against.
    public init(isAuthenticated: Bool, authError: RemoteError? = nil) {
        self.isAuthenticated = isAuthenticated
        self.authError = authError
    }

    /// Reads the response `data`. Unlike the JS client, a missing or non-boolean
    /// `isAuthenticated` is an error rather than "truthy".
    public init(parsing data: JSONValue?) throws(MalformedResponseError) {
        guard let data, case .object(let members) = data else {
            throw MalformedResponseError(message: "Authenticate response data is not an object")
        }
        guard case .bool(let flag)? = members["isAuthenticated"] else {
            throw MalformedResponseError(message: "Authenticate response has no boolean isAuthenticated")
        }
        isAuthenticated = flag
        switch members["authError"] {
        case nil, .null?: authError = nil
        case let error?: authError = RemoteError(hydrating: error)
        }
    }

    /// The wire form: `{isAuthenticated, authError}` (`authError` null when none, as the server writes it).
    public var jsonValue: JSONValue {
        .object(["isAuthenticated": .bool(isAuthenticated), "authError": authError?.dehydrated() ?? .null])
    }
}
