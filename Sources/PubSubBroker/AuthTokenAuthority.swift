import Foundation

/// Signs and verifies the broker's auth tokens (JWT HS256 with `authKey`), and turns
/// verification failures into the errors socketcluster-server sends (`AuthTokenExpiredError`,
/// `AuthTokenInvalidError`, `AuthTokenNotBeforeError`, `AuthTokenError`).
struct AuthTokenAuthority: Sendable {
    /// The outcome of checking a token a client presented.
    enum Verdict {
        case valid(payload: [String: JSONValue], signed: String)
        /// `isBadToken` errors make the server send `#removeAuthToken`.
        case rejected(RemoteError, isBadToken: Bool)
    }

    let key: [UInt8]
    /// Added as `exp = iat + defaultExpiry` when a payload has no `exp` (seconds).
    let defaultExpiry: Int64
    /// Longest token verified, in UTF-8 bytes (`BrokerOptions.maxAuthTokenLength`); `nil` for no limit.
    let maximumTokenLength: Int?

    init(key: String, defaultExpiry: Duration, maximumTokenLength: Int? = nil) {
        self.key = Array(key.utf8)
        self.defaultExpiry = defaultExpiry.components.seconds
        self.maximumTokenLength = maximumTokenLength
    }

    /// Verifies a token value as it came off the wire (`nil` when absent or `null`).
    func verify(_ token: JSONValue?, now: Date) -> Verdict {
        guard let token, !token.isNull else { return mustBeProvided }
        guard case .string(let signed) = token else {
            // ag-auth refuses non-string tokens before jsonwebtoken sees them.
            return .rejected(
                RemoteError(
                    name: "AuthTokenError", message: "Invalid token format - Token must be a string",
                    fields: ["isBadToken": true]),
                isBadToken: true)
        }
        guard !signed.isEmpty else { return mustBeProvided }
        if let limit = maximumTokenLength, signed.utf8.count > limit {
            // Refused before decoding, so a huge token costs no more than its bytes.
            return .rejected(
                RemoteError(
                    name: "AuthTokenInvalidError", message: "jwt longer than \(limit) bytes", fields: ["isBadToken": true]),
                isBadToken: true)
        }
        switch JWT.verify(signed, secret: key, now: now) {
        case .success(let payload):
            return .valid(payload: payload, signed: signed)
        case .failure(let error):
            var remote = error.remoteError
            if remote.fields["isBadToken"] == nil { remote.fields["isBadToken"] = .bool(error.isBadToken) }
            return .rejected(remote, isBadToken: error.isBadToken)
        }
    }

    /// Signs `payload` the way socketcluster-server's `setAuthToken` does: `iat` defaults to
    /// `now` (whole seconds) and `exp` to `iat + defaultExpiry` when absent. Returns the token and
    /// the payload as signed.
    func sign(_ payload: [String: JSONValue], now: Date) -> (token: String, payload: [String: JSONValue]) {
        var claims = payload
        let issuedAt = claims["iat"]?.intValue ?? Int64(now.timeIntervalSince1970.rounded(.down))
        claims["iat"] = .int(issuedAt)
        if claims["exp"] == nil {
            claims["exp"] = .int(issuedAt + defaultExpiry)
        }
        return (JWT.sign(payload: claims, secret: key), claims)
    }

    private var mustBeProvided: Verdict {
        .rejected(
            RemoteError(name: "AuthTokenInvalidError", message: "jwt must be provided", fields: ["isBadToken": true]),
            isBadToken: true)
    }
}
