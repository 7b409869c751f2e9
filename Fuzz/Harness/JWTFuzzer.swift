import Foundation
import PubSubProtocol

/// JWT payload decoding and HS256 verification.
///
/// Input: all bytes are the token text. Checks: a token that verifies decodes (without
/// verification) to the same payload; a decoded object payload, signed with our secret,
/// verifies back to an equivalent payload (or fails only on its own `exp`/`nbf`), and never
/// with another secret.
enum JWTFuzzer {
    static let name = "jwt"
    static let secret = "fuzz-secret"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func run(_ raw: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let token = String(decoding: raw, as: UTF8.self)
        let decoded = JWT.decodePayload(token)
        if case .success(let payload) = JWT.verify(token, secret: secret, now: now) {
            try require(decoded == .object(payload), name, "verified \(payload), decodePayload gives \(String(describing: decoded))")
        }
        guard case .object(let payload)? = decoded else { return }
        let signed = JWT.sign(payload: payload, secret: secret)
        switch JWT.verify(signed, secret: secret, now: now) {
        case .success(let back):
            try require(JSONFuzzer.equivalent(.object(back), .object(payload)), name, "signed \(payload), verified \(back)")
        case .failure(.expired), .failure(.notBefore):
            break
        case .failure(.invalid(let message)):
            try require(
                message == "invalid exp value" || message == "invalid nbf value", name,
                "our own token for \(payload) fails: \(message)")
        }
        if case .failure(.invalid("invalid signature")) = JWT.verify(signed, secret: "another secret", now: now) {
        } else {
            throw FuzzFinding(name, "our token for \(payload) verifies with another secret")
        }
    }
}
