/// The `data` of the server's answer to `#authenticate` (Protocol.md §9).
package struct AuthenticateResponse: Sendable, Hashable {
    /// Whether the server accepted the token.
    package var isAuthenticated: Bool
    /// Why it did not (e.g. `AuthTokenNotBeforeError`), when it says.
    package var authError: RemoteError?

    /// A response to send or compare against.
    package init(isAuthenticated: Bool, authError: RemoteError? = nil) {
        self.isAuthenticated = isAuthenticated
        self.authError = authError
    }

    /// Reads the response `data`. Unlike the JS client, a missing or non-boolean
    /// `isAuthenticated` is an error rather than "truthy".
    package init(parsing data: JSONValue?) throws(MalformedResponseError) {
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

    /// The whole answer packet to the `#authenticate` invoke `rid`, as socketcluster-server
    /// writes it: `{"rid":N,"data":{"isAuthenticated":…,"authError":…|null}}` in that order.
    package func serializedResponse(rid: Int64) -> String {
        JSONSerializer.responseText(rid: rid) { serializer, first in
            serializer.writeMember("isAuthenticated", .bool(isAuthenticated), first: &first)
            if let authError {
                serializer.writeErrorMember("authError", authError, first: &first)
            } else {
                serializer.writeMember("authError", .null, first: &first)
            }
        }
    }
}

extension AuthenticateResponse {
    /// The authenticate answer's `data` as a value (`authError` dehydrated or null).
    package var dataValue: JSONValue {
        .object(["isAuthenticated": .bool(isAuthenticated), "authError": authError?.dehydrated() ?? .null])
    }
}
