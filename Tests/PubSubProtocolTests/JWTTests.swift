import Foundation
import XCTest
import PubSubProtocol

/// Tokens and verdicts from Tests/Fixtures/socketcluster-server-19/README.md and its recordings.
final class JWTTests: XCTestCase {
    private let secret = "test-secret"
    private let validToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjQxMDI0NDQ4MDB9.kGADQPjeIv6USYeSV4bSZnLqwkxEGwaH1tX5ORHkL3M"
    private let expiredToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwiaWF0IjoxNjAwMDAwMDAwLCJleHAiOjE2MDAwMDAwNjB9.k2rrocL-qvDH2PH7L0tfbG2e6tUXFDHxpfmPJ2DPHec"
    private let badSignatureToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjQxMDI0NDQ4MDB9.Mo2aPFIivNgsTf4GWk53sirB61keVW1nBzobcappngY"
    /// The recordings were made on 2026-11-21.
    private let recordingTime = Date(timeIntervalSince1970: 1_795_248_162)

    func testSignReproducesTheRecordedValidTokenByteForByte() {
        let token = JWT.sign(payload: ["username": "alice", "iat": 1_700_000_000, "exp": 4_102_444_800], secret: secret)
        XCTAssertEqual(token, validToken)
    }

    func testSignReproducesTheRecordedExpiredTokenByteForByte() {
        let token = JWT.sign(payload: ["exp": 1_600_000_060, "username": "alice", "iat": 1_600_000_000], secret: Array(secret.utf8))
        XCTAssertEqual(token, expiredToken)
    }

    func testSignWithWrongSecretReproducesTheBadSignatureToken() {
        let token = JWT.sign(payload: ["username": "alice", "iat": 1_700_000_000, "exp": 4_102_444_800], secret: "wrong-secret")
        XCTAssertEqual(token, badSignatureToken)
    }

    func testLoginTokenFromRecordingVerifies() throws {
        let token = try recordedLoginToken()
        let payload = try JWT.verify(token, secret: secret, now: recordingTime).get()
        XCTAssertEqual(payload["username"], "alice")
        guard let iat = payload["iat"]?.intValue else { return XCTFail("no iat") }
        XCTAssertEqual(payload["exp"]?.intValue, iat + 86_400)
        // And re-signing the same claims gives the same token (jsonwebtoken's claim order).
        XCTAssertEqual(JWT.sign(payload: payload, secret: secret), token)
    }

    func testVerifyValidToken() throws {
        let payload = try JWT.verify(validToken, secret: secret, now: recordingTime).get()
        XCTAssertEqual(payload, ["username": "alice", "iat": 1_700_000_000, "exp": 4_102_444_800])
    }

    func testExpiredTokenGivesTheRecordedError() throws {
        let recorded = try recordedAuthError(file: "handshake-expired-token.proto2.jsonl")
        let result = JWT.verify(expiredToken, secret: secret, now: recordingTime)
        guard case .failure(let error) = result else { return XCTFail("verified an expired token") }
        XCTAssertEqual(error.remoteError.dehydrated(), recorded)
        XCTAssertEqual(error.name, "AuthTokenExpiredError")
        XCTAssertEqual(error.message, "jwt expired")
        XCTAssertTrue(error.isBadToken)
        XCTAssertEqual(error.remoteError["expiry"], "2020-09-13T12:27:40.000Z")
    }

    func testExpiryBoundaryIsInclusiveInWholeSeconds() {
        let exp = 1_600_000_060.0
        XCTAssertNoThrow(try JWT.verify(expiredToken, secret: secret, now: Date(timeIntervalSince1970: exp - 0.001)).get())
        XCTAssertThrowsError(try JWT.verify(expiredToken, secret: secret, now: Date(timeIntervalSince1970: exp)).get())
    }

    func testBadSignatureGivesTheRecordedError() throws {
        let recorded = try recordedAuthError(file: "handshake-bad-signature-token.proto2.jsonl")
        guard case .failure(let error) = JWT.verify(badSignatureToken, secret: secret, now: recordingTime) else {
            return XCTFail("verified a token signed with another key")
        }
        XCTAssertEqual(error.remoteError.dehydrated(), recorded)
        XCTAssertEqual(error, .invalid(message: "invalid signature"))
    }

    func testGarbageTokenGivesTheRecordedErrorInHandshakeAndAuthenticate() throws {
        let handshake = try recordedAuthError(file: "handshake-garbage-token.proto2.jsonl")
        let authenticate = try recordedErrorResponse(file: "authenticate-bad-token.proto2.jsonl")
        guard case .failure(let error) = JWT.verify("not.a.jwt", secret: secret, now: recordingTime) else {
            return XCTFail("verified garbage")
        }
        XCTAssertEqual(error.remoteError.dehydrated(), handshake)
        XCTAssertEqual(error.remoteError.dehydrated(), authenticate)
        XCTAssertEqual(error.message, "invalid token")
    }

    func testMalformedAndEmptyTokens() {
        func message(_ token: String) -> String? {
            if case .failure(let error) = JWT.verify(token, secret: secret, now: recordingTime) { return error.message }
            return nil
        }
        XCTAssertEqual(message(""), "jwt must be provided")
        XCTAssertEqual(message("abc"), "jwt malformed")
        XCTAssertEqual(message("a.b"), "jwt malformed")
        XCTAssertEqual(message("a.b.c.d"), "jwt malformed")
        XCTAssertEqual(message("a+b.c.d"), "invalid token")
        let unsigned = validToken.split(separator: ".").prefix(2).joined(separator: ".") + "."
        XCTAssertEqual(message(unsigned), "jwt signature is required")
        let noneHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        XCTAssertEqual(message(noneHeader + "." + validToken.split(separator: ".")[1] + ".sig"), "invalid algorithm")
    }

    func testNotBeforeAndNonNumericClaims() {
        let future = JWT.sign(payload: ["nbf": 2_000_000_000], secret: secret)
        guard case .failure(let error) = JWT.verify(future, secret: secret, now: recordingTime) else {
            return XCTFail("accepted a token before nbf")
        }
        XCTAssertEqual(error.name, "AuthTokenNotBeforeError")
        XCTAssertEqual(error.message, "jwt not active")
        XCTAssertFalse(error.isBadToken)
        XCTAssertEqual(
            error.remoteError.dehydrated(),
            ["message": "jwt not active", "name": "AuthTokenNotBeforeError", "date": "2033-05-18T03:33:20.000Z", "isBadToken": false])
        XCTAssertNoThrow(try JWT.verify(future, secret: secret, now: Date(timeIntervalSince1970: 2_000_000_000)).get())

        let badExp = JWT.sign(payload: ["exp": "tomorrow"], secret: secret)
        XCTAssertEqual(JWT.verify(badExp, secret: secret, now: recordingTime), .failure(.invalid(message: "invalid exp value")))
        let badNbf = JWT.sign(payload: ["nbf": true], secret: secret)
        XCTAssertEqual(JWT.verify(badNbf, secret: secret, now: recordingTime), .failure(.invalid(message: "invalid nbf value")))
    }

    func testDecodePayloadWithoutVerification() {
        XCTAssertEqual(JWT.decodePayload(expiredToken), ["username": "alice", "iat": 1_600_000_000, "exp": 1_600_000_060])
        XCTAssertEqual(JWT.decodePayload(badSignatureToken)?["username"], "alice")
        XCTAssertNil(JWT.decodePayload("nodots"))
        // Not JSON: the decoded text.
        XCTAssertEqual(JWT.decodePayload("x." + Base64URL.encode(Array("hello".utf8)) + ".y"), "hello")
        // Not base64 at all: the segment itself, as the JS client does.
        XCTAssertEqual(JWT.decodePayload("x.a*b.y"), "a*b")
        // Standard alphabet and padding accepted.
        let payload = #"{"user":"ü?>>"}"#
        let standard = Data(payload.utf8).base64EncodedString()
        XCTAssertEqual(JWT.decodePayload("h." + standard + ".s"), ["user": "ü?>>"])
        XCTAssertEqual(JWT.decodePayload("h." + Base64URL.encode(Array(payload.utf8)) + ".s"), ["user": "ü?>>"])
    }

    func testBase64URLRoundTripsAndRejectsJunk() {
        var generator = SplitMix64(seed: 3)
        for length in 0..<64 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let encoded = Base64URL.encode(bytes)
            XCTAssertFalse(encoded.contains("=") || encoded.contains("+") || encoded.contains("/"))
            XCTAssertEqual(Base64URL.decode(encoded), bytes)
            XCTAssertEqual(Base64URL.decode(Data(bytes).base64EncodedString()), bytes)
        }
        XCTAssertNil(Base64URL.decode("a"))
        XCTAssertNil(Base64URL.decode("ab*d"))
        XCTAssertNil(Base64URL.decode("ab=d"))
        XCTAssertEqual(Base64URL.decode(""), [])
    }

    // MARK: Recordings

    private func fixture(_ name: String) throws -> [RecordedFrame] {
        try RecordedFrame.load(name)
    }

    private func recordedLoginToken() throws -> String {
        for frame in try fixture("login.proto2.jsonl") {
            if case .packets(let packets) = InboundFrame(text: frame.text ?? "#"),
                case .transmit("#setAuthToken", let data)? = packets.first,
                let token = data?["token"]?.stringValue
            {
                return token
            }
        }
        throw XCTSkip("no #setAuthToken in login recording")
    }

    private func recordedAuthError(file: String) throws -> JSONValue {
        for frame in try fixture(file) where frame.direction == "server->client" {
            if case .packets(let packets) = InboundFrame(text: frame.text ?? "#"),
                case .response(_, .success(let data))? = packets.first,
                let authError = data?["authError"]
            {
                return authError
            }
        }
        XCTFail("no authError in \(file)")
        return .null
    }

    private func recordedErrorResponse(file: String) throws -> JSONValue {
        for frame in try fixture(file) where frame.direction == "server->client" {
            if case .packets(let packets) = InboundFrame(text: frame.text ?? "#"),
                case .response(_, .failure(let error))? = packets.first
            {
                return error.dehydrated()
            }
        }
        XCTFail("no error response in \(file)")
        return .null
    }
}
