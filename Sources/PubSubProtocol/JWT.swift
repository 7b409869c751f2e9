import Digests
import Foundation

/// JSON Web Tokens as SocketCluster uses them: HS256 signing and verification (broker side)
/// and unverified payload decoding (client side).
public enum JWT {
    /// `{"alg":"HS256","typ":"JWT"}` base64url-encoded, the header jsonwebtoken writes.
    static let hs256Header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// The claims jsonwebtoken appends after the caller's own keys, in the order it appends them.
    private static let trailingClaims = ["iat", "nbf", "exp"]

    /// Signs `payload` with HMAC-SHA256. The payload's keys are written sorted, except `iat`,
    /// `nbf`, `exp` which come last in that order, as jsonwebtoken adds them — so
    /// `{"username":"alice","iat":..,"exp":..}` reproduces socketcluster-server's tokens byte for byte.
    public static func sign(payload: [String: JSONValue], secret: some Collection<UInt8>) -> String {
        var serializer = JSONSerializer(capacity: 128)
        var first = true
        serializer.appendRaw(UInt8(ascii: "{"))
        for key in payload.keys.sorted() where !trailingClaims.contains(key) {
            if let value = payload[key] { serializer.writeMember(key, value, first: &first) }
        }
        for key in trailingClaims {
            if let value = payload[key] { serializer.writeMember(key, value, first: &first) }
        }
        serializer.appendRaw(UInt8(ascii: "}"))
        let signingInput = hs256Header + "." + Base64URL.encode(serializer.bytes)
        let signature = HMAC.authenticationCode(for: Array(signingInput.utf8), key: secret)
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Signs `payload` with the UTF-8 bytes of `secret`.
    public static func sign(payload: [String: JSONValue], secret: String) -> String {
        sign(payload: payload, secret: Array(secret.utf8))
    }

    /// The payload of `token` without any verification (Protocol.md §9): the JSON of the second
    /// segment; the decoded text as a string when it is not JSON; the segment itself when it is
    /// not base64; nil when there is no second segment.
    public static func decodePayload(_ token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let segment = String(parts[1])
        guard let bytes = Base64URL.decode(segment) else { return .string(segment) }
        if let value = try? JSONValue(parsing: bytes) { return value }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// Verifies an HS256 `token` the way jsonwebtoken 9 does for socketcluster-server, checking
    /// in order: presence, three segments, decodable header and payload, signature present,
    /// algorithm, signature, `nbf`, `exp`. Time is compared in whole seconds of `now`.
    ///
    /// Only HS256 is supported: tokens declaring HS384/HS512 fail with "invalid algorithm".
    public static func verify(_ token: String, secret: some Collection<UInt8>, now: Date)
        -> Result<[String: JSONValue], JWTVerificationError>
    {
        guard !token.isEmpty else { return .failure(.invalid(message: "jwt must be provided")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return .failure(.invalid(message: "jwt malformed")) }
        // jws accepts only /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.
        guard isBase64URLSegment(parts[0], allowEmpty: false), isBase64URLSegment(parts[1], allowEmpty: false),
            isBase64URLSegment(parts[2], allowEmpty: true),
            let headerBytes = Base64URL.decode(parts[0]),
            case .object(let header)? = try? JSONValue(parsing: headerBytes),
            let payloadBytes = Base64URL.decode(parts[1]),
            let payloadValue = try? JSONValue(parsing: payloadBytes)
        else {
            return .failure(.invalid(message: "invalid token"))
        }
        guard !parts[2].isEmpty else { return .failure(.invalid(message: "jwt signature is required")) }
        guard header["alg"] == .string("HS256") else { return .failure(.invalid(message: "invalid algorithm")) }

        let expected = Base64URL.encode(HMAC.authenticationCode(for: Array((parts[0] + "." + parts[1]).utf8), key: secret))
        guard HMAC.constantTimeEquals(Array(expected.utf8), Array(parts[2].utf8)) else {
            return .failure(.invalid(message: "invalid signature"))
        }
        guard case .object(let payload) = payloadValue else { return .failure(.invalid(message: "invalid token")) }

        let clockTimestamp = (now.timeIntervalSince1970).rounded(.down)
        if let nbf = payload["nbf"] {
            guard let notBefore = nbf.doubleValue else { return .failure(.invalid(message: "invalid nbf value")) }
            if notBefore > clockTimestamp {
                return .failure(.notBefore(date: javaScriptDate(seconds: notBefore)))
            }
        }
        if let exp = payload["exp"] {
            guard let expiry = exp.doubleValue else { return .failure(.invalid(message: "invalid exp value")) }
            if clockTimestamp >= expiry {
                return .failure(.expired(expiry: javaScriptDate(seconds: expiry)))
            }
        }
        return .success(payload)
    }

    /// Verifies with the UTF-8 bytes of `secret`.
    public static func verify(_ token: String, secret: String, now: Date) -> Result<[String: JSONValue], JWTVerificationError> {
        verify(token, secret: Array(secret.utf8), now: now)
    }

    /// `new Date(seconds * 1000)`: JavaScript truncates the time value to whole milliseconds.
    private static func javaScriptDate(seconds: Double) -> Date {
        let milliseconds = (seconds * 1000).rounded(.towardZero)
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    private static func isBase64URLSegment(_ segment: String, allowEmpty: Bool) -> Bool {
        if segment.isEmpty { return allowEmpty }
        return segment.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }
}
