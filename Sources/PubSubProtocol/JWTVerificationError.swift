import Foundation
import PeerText

/// Why a token failed verification, with the error names and messages socketcluster-server sends
/// (ag-auth mapping jsonwebtoken's errors, Protocol.md §6).
public enum JWTVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `AuthTokenExpiredError` "jwt expired": `exp` is not after the current second.
    case expired(expiry: Date)
    /// `AuthTokenNotBeforeError` "jwt not active": `nbf` is in the future. Not a bad token.
    case notBefore(date: Date)
    /// `AuthTokenInvalidError` with jsonwebtoken's message: "invalid signature", "invalid token",
    /// "jwt malformed", "jwt must be provided", "jwt signature is required", "invalid algorithm",
    /// "invalid exp value", "invalid nbf value".
    case invalid(message: String)

    /// The SocketCluster error name.
    public var name: String {
        switch self {
        case .expired: return "AuthTokenExpiredError"
        case .notBefore: return "AuthTokenNotBeforeError"
        case .invalid: return "AuthTokenInvalidError"
        }
    }

    /// The jsonwebtoken message.
    public var message: String {
        switch self {
        case .expired: return "jwt expired"
        case .notBefore: return "jwt not active"
        case .invalid(let message): return message
        }
    }

    /// Whether the server treats the token as bad (and follows up with `#removeAuthToken`).
    public var isBadToken: Bool {
        switch self {
        case .notBefore: return false
        case .expired, .invalid: return true
        }
    }

    /// The error as the server puts it on the wire, e.g.
    /// `{"message":"jwt expired","name":"AuthTokenExpiredError","expiry":"2020-09-13T12:27:40.000Z","isBadToken":true}`.
    public var remoteError: RemoteError {
        var fields: [String: JSONValue] = [:]
        switch self {
        case .expired(let expiry): fields["expiry"] = JWTVerificationError.isoValue(expiry)
        case .notBefore(let date): fields["date"] = JWTVerificationError.isoValue(date)
        case .invalid: break
        }
        fields["isBadToken"] = .bool(isBadToken)
        return RemoteError(name: name, message: message, fields: fields)
    }

    /// `"<name>: <message>"`, the message's control, bidi and invisible characters escaped as
    /// `\u{1B}` (a verifier's message can quote the token).
    public var description: String { "\(name): \(PeerTextEscaping.escape(message))" }

    private static func isoValue(_ date: Date) -> JSONValue {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude <= Double(JavaScriptDate.maximumMilliseconds),
            let text = JavaScriptDate.isoString(milliseconds: Int64(milliseconds))
        else { return .null }
        return .string(text)
    }
}
