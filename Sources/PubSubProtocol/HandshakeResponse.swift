/// The `data` of the server's answer to `#handshake` (Protocol.md §4).
package struct HandshakeResponse: Sendable, Hashable {
    /// Server-assigned socket id, new on every connection.
    package var id: String
    /// The server's ping timeout, in milliseconds.
    package var pingTimeout: Int64
    /// Whether the token sent in the handshake was accepted.
    package var isAuthenticated: Bool
    /// Why the token was rejected, when one was sent and rejected.
    package var authError: RemoteError?

    /// A response to send (broker side) or to compare against.
    package init(id: String, pingTimeout: Int64, isAuthenticated: Bool, authError: RemoteError? = nil) {
        self.id = id
        self.pingTimeout = pingTimeout
        self.isAuthenticated = isAuthenticated
        self.authError = authError
    }

    /// Reads the response `data`. A missing `isAuthenticated` means false; a null `authError` means none.
    package init(parsing data: JSONValue?) throws(MalformedResponseError) {
        guard let data, case .object(let members) = data else {
            throw MalformedResponseError(message: "Handshake response data is not an object")
        }
        guard case .string(let id)? = members["id"] else {
            throw MalformedResponseError(message: "Handshake response has no string id")
        }
        guard let timeout = members["pingTimeout"]?.intValue, timeout >= 0, timeout <= Int64(Int32.max) else {
            throw MalformedResponseError(message: "Handshake response has no valid pingTimeout")
        }
        let isAuthenticated: Bool
        switch members["isAuthenticated"] {
        case nil, .null?: isAuthenticated = false
        case .bool(let flag)?: isAuthenticated = flag
        default: throw MalformedResponseError(message: "Handshake response isAuthenticated is not a boolean")
        }
        self.id = id
        self.pingTimeout = timeout
        self.isAuthenticated = isAuthenticated
        switch members["authError"] {
        case nil, .null?: authError = nil
        case let error?: authError = RemoteError(hydrating: error)
        }
    }

    /// The whole answer packet to the `#handshake` invoke `rid`, as socketcluster-server writes
    /// it: `{"rid":N,"data":{id, pingTimeout[, authError], isAuthenticated}}` in that order.
    package func serializedResponse(rid: Int64) -> String {
        JSONSerializer.responseText(rid: rid) { serializer, first in
            serializer.writeMember("id", .string(id), first: &first)
            serializer.writeMember("pingTimeout", .int(pingTimeout), first: &first)
            if let authError { serializer.writeErrorMember("authError", authError, first: &first) }
            serializer.writeMember("isAuthenticated", .bool(isAuthenticated), first: &first)
        }
    }
}

extension HandshakeResponse {
    /// The handshake answer's `data` as a value (`authError` dehydrated; object keys unordered).
    package var dataValue: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "pingTimeout": .int(pingTimeout), "isAuthenticated": .bool(isAuthenticated),
        ]
        if let authError { members["authError"] = authError.dehydrated() }
        return .object(members)
    }
}
