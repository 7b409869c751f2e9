import Foundation
import XCTest
@testable import PubSubBroker

/// Drives the broker with the client frames of every socketcluster-server 19 recording and
/// compares what it answers with what the real server answered: byte for byte, after replacing
/// the random socket id (checked for shape) by the recorded one. Time is a manual clock that only
/// moves to the broker's next deadline when the recording shows a server frame not yet produced
/// (pings, timeouts); tokens with wall-clock claims are reproduced by starting the clock at the
/// recorded `iat`.
final class GoldenTranscriptTests: XCTestCase {
    /// Every scenario below, so that a recording added to the fixtures without a test fails.
    static let coveredScenarios: Set<String> = [
        "authenticate",
        "authenticate-bad-token",
        "batch-client",
        "batch-server",
        "chat-broadcast",
        "client-deauthenticate",
        "emit-no-ack",
        "handshake",
        "handshake-bad-signature-token",
        "handshake-expired-token",
        "handshake-garbage-token",
        "handshake-valid-token",
        "invoke-echo",
        "invoke-echo-no-data",
        "invoke-fail",
        "invoke-out-of-order",
        "invoke-unknown-procedure",
        "kickout",
        "login",
        "logout",
        "ping-pong",
        "publish-receive-own",
        "publish-rejected",
        "raw-authenticate-without-cid",
        "raw-batch-with-handshake",
        "raw-cid-reused",
        "raw-first-message-invalid-json",
        "raw-first-message-not-handshake",
        "raw-first-message-pong",
        "raw-handshake-binary-frame",
        "raw-handshake-minimal",
        "raw-handshake-without-cid",
        "raw-invalid-json-after-handshake",
        "raw-malformed-builtin-events",
        "raw-no-handshake-timeout",
        "raw-no-pong",
        "raw-no-pong-but-traffic",
        "raw-non-numeric-cid",
        "raw-pong-before-handshake",
        "raw-pong-wrong-protocol",
        "raw-second-handshake",
        "raw-unknown-hash-event",
        "raw-unknown-rid",
        "server-disconnect-4321",
        "server-emit",
        "server-invoke",
        "server-invoke-error",
        "server-publish",
        "subscribe",
        "subscribe-private-authenticated",
        "subscribe-rejected",
        "subscribe-with-data",
        "unsubscribe",
    ]

    func testEveryRecordingHasAGoldenTest() throws {
        let scenarios = Set(try Recording.allNames().map { try Recording(named: $0).scenario })
        XCTAssertEqual(scenarios.subtracting(Self.coveredScenarios), [], "recordings without a golden test")
        XCTAssertEqual(try Recording.allNames().count, 105)
    }

    func testAuthenticateMatchesRecording() throws {
        try assertBrokerReproduces("authenticate.proto1", "authenticate.proto2")
    }

    func testAuthenticateBadTokenMatchesRecording() throws {
        try assertBrokerReproduces("authenticate-bad-token.proto1", "authenticate-bad-token.proto2")
    }

    func testBatchClientMatchesRecording() throws {
        try assertBrokerReproduces("batch-client.proto1", "batch-client.proto2")
    }

    func testBatchServerMatchesRecording() throws {
        try assertBrokerReproduces("batch-server.proto1", "batch-server.proto2")
    }

    func testChatBroadcastMatchesRecording() throws {
        try assertBrokerReproduces("chat-broadcast.proto1", "chat-broadcast.proto2")
    }

    func testClientDeauthenticateMatchesRecording() throws {
        try assertBrokerReproduces("client-deauthenticate.proto1", "client-deauthenticate.proto2")
    }

    func testEmitNoAckMatchesRecording() throws {
        try assertBrokerReproduces("emit-no-ack.proto1", "emit-no-ack.proto2")
    }

    func testHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("handshake.proto1", "handshake.proto2")
    }

    func testHandshakeBadSignatureTokenMatchesRecording() throws {
        try assertBrokerReproduces("handshake-bad-signature-token.proto1", "handshake-bad-signature-token.proto2")
    }

    func testHandshakeExpiredTokenMatchesRecording() throws {
        try assertBrokerReproduces("handshake-expired-token.proto1", "handshake-expired-token.proto2")
    }

    func testHandshakeGarbageTokenMatchesRecording() throws {
        try assertBrokerReproduces("handshake-garbage-token.proto1", "handshake-garbage-token.proto2")
    }

    func testHandshakeValidTokenMatchesRecording() throws {
        try assertBrokerReproduces("handshake-valid-token.proto1", "handshake-valid-token.proto2")
    }

    func testInvokeEchoMatchesRecording() throws {
        try assertBrokerReproduces("invoke-echo.proto1", "invoke-echo.proto2")
    }

    func testInvokeEchoNoDataMatchesRecording() throws {
        try assertBrokerReproduces("invoke-echo-no-data.proto1", "invoke-echo-no-data.proto2")
    }

    func testInvokeFailMatchesRecording() throws {
        try assertBrokerReproduces("invoke-fail.proto1", "invoke-fail.proto2")
    }

    func testInvokeOutOfOrderMatchesRecording() throws {
        try assertBrokerReproduces("invoke-out-of-order.proto1", "invoke-out-of-order.proto2")
    }

    func testInvokeUnknownProcedureMatchesRecording() throws {
        try assertBrokerReproduces("invoke-unknown-procedure.proto1", "invoke-unknown-procedure.proto2")
    }

    func testKickoutMatchesRecording() throws {
        try assertBrokerReproduces("kickout.proto1", "kickout.proto2")
    }

    func testLoginMatchesRecording() throws {
        try assertBrokerReproduces("login.proto1", "login.proto2")
    }

    func testLogoutMatchesRecording() throws {
        try assertBrokerReproduces("logout.proto1", "logout.proto2")
    }

    func testPingPongMatchesRecording() throws {
        try assertBrokerReproduces("ping-pong.proto1", "ping-pong.proto2")
    }

    func testPublishReceiveOwnMatchesRecording() throws {
        try assertBrokerReproduces("publish-receive-own.proto1", "publish-receive-own.proto2")
    }

    func testPublishRejectedMatchesRecording() throws {
        try assertBrokerReproduces("publish-rejected.proto1", "publish-rejected.proto2")
    }

    func testRawAuthenticateWithoutCidMatchesRecording() throws {
        try assertBrokerReproduces("raw-authenticate-without-cid.proto1", "raw-authenticate-without-cid.proto2")
    }

    func testRawBatchWithHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("raw-batch-with-handshake.proto1", "raw-batch-with-handshake.proto2")
    }

    func testRawCidReusedMatchesRecording() throws {
        try assertBrokerReproduces("raw-cid-reused.proto1", "raw-cid-reused.proto2")
    }

    func testRawFirstMessageInvalidJsonMatchesRecording() throws {
        try assertBrokerReproduces("raw-first-message-invalid-json.proto1", "raw-first-message-invalid-json.proto2")
    }

    func testRawFirstMessageNotHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("raw-first-message-not-handshake.proto1", "raw-first-message-not-handshake.proto2")
    }

    func testRawFirstMessagePongMatchesRecording() throws {
        try assertBrokerReproduces("raw-first-message-pong.proto1", "raw-first-message-pong.proto2")
    }

    func testRawHandshakeBinaryFrameMatchesRecording() throws {
        try assertBrokerReproduces("raw-handshake-binary-frame.proto1", "raw-handshake-binary-frame.proto2")
    }

    func testRawHandshakeMinimalMatchesRecording() throws {
        try assertBrokerReproduces("raw-handshake-minimal.proto1", "raw-handshake-minimal.proto2")
    }

    func testRawHandshakeWithoutCidMatchesRecording() throws {
        try assertBrokerReproduces("raw-handshake-without-cid.proto1", "raw-handshake-without-cid.proto2")
    }

    func testRawInvalidJsonAfterHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("raw-invalid-json-after-handshake.proto1", "raw-invalid-json-after-handshake.proto2")
    }

    func testRawMalformedBuiltinEventsMatchesRecording() throws {
        try assertBrokerReproduces("raw-malformed-builtin-events.proto1", "raw-malformed-builtin-events.proto2")
    }

    func testRawNoHandshakeTimeoutMatchesRecording() throws {
        try assertBrokerReproduces("raw-no-handshake-timeout.proto1", "raw-no-handshake-timeout.proto2")
    }

    func testRawNoPongMatchesRecording() throws {
        try assertBrokerReproduces("raw-no-pong.proto1", "raw-no-pong.proto2")
    }

    func testRawNoPongButTrafficMatchesRecording() throws {
        try assertBrokerReproduces("raw-no-pong-but-traffic.proto1", "raw-no-pong-but-traffic.proto2")
    }

    func testRawNonNumericCidMatchesRecording() throws {
        try assertBrokerReproduces("raw-non-numeric-cid.proto1", "raw-non-numeric-cid.proto2")
    }

    func testRawPongBeforeHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("raw-pong-before-handshake.proto1", "raw-pong-before-handshake.proto2")
    }

    func testRawPongWrongProtocolMatchesRecording() throws {
        try assertBrokerReproduces("raw-pong-wrong-protocol")
    }

    func testRawSecondHandshakeMatchesRecording() throws {
        try assertBrokerReproduces("raw-second-handshake.proto1", "raw-second-handshake.proto2")
    }

    func testRawUnknownHashEventMatchesRecording() throws {
        try assertBrokerReproduces("raw-unknown-hash-event.proto1", "raw-unknown-hash-event.proto2")
    }

    func testRawUnknownRidMatchesRecording() throws {
        try assertBrokerReproduces("raw-unknown-rid.proto1", "raw-unknown-rid.proto2")
    }

    func testServerDisconnect4321MatchesRecording() throws {
        try assertBrokerReproduces("server-disconnect-4321.proto1", "server-disconnect-4321.proto2")
    }

    func testServerEmitMatchesRecording() throws {
        try assertBrokerReproduces("server-emit.proto1", "server-emit.proto2")
    }

    func testServerInvokeMatchesRecording() throws {
        try assertBrokerReproduces("server-invoke.proto1", "server-invoke.proto2")
    }

    func testServerInvokeErrorMatchesRecording() throws {
        try assertBrokerReproduces("server-invoke-error.proto1", "server-invoke-error.proto2")
    }

    func testServerPublishMatchesRecording() throws {
        try assertBrokerReproduces("server-publish.proto1", "server-publish.proto2")
    }

    func testSubscribeMatchesRecording() throws {
        try assertBrokerReproduces("subscribe.proto1", "subscribe.proto2")
    }

    func testSubscribePrivateAuthenticatedMatchesRecording() throws {
        try assertBrokerReproduces("subscribe-private-authenticated.proto1", "subscribe-private-authenticated.proto2")
    }

    func testSubscribeRejectedMatchesRecording() throws {
        try assertBrokerReproduces("subscribe-rejected.proto1", "subscribe-rejected.proto2")
    }

    func testSubscribeWithDataMatchesRecording() throws {
        try assertBrokerReproduces("subscribe-with-data.proto1", "subscribe-with-data.proto2")
    }

    func testUnsubscribeMatchesRecording() throws {
        try assertBrokerReproduces("unsubscribe.proto1", "unsubscribe.proto2")
    }
}

/// The broker with `MinBinPacketCodec` against every recording of socketcluster-server 19 with
/// `sc-codec-min-bin` 3.0.0: the recorded client's frames go in, and the broker's binary frames
/// must equal the server's byte for byte (socket id swapped as for JSON).
final class MinBinGoldenTranscriptTests: XCTestCase {
    /// The one divergence: socketcluster-server encodes the `Date` in an expired token's
    /// `authError.expiry` as an empty map (msgpack-lite sees an object without own keys); the
    /// broker keeps the ISO 8601 text it sends with JSON.
    static let datedRecordings: Set<String> = ["handshake-expired-token.proto1", "handshake-expired-token.proto2"]

    func testEveryOtherMinBinRecordingIsReproducedByteForByte() throws {
        let names = try Recording.allNames(in: Recording.minBinDirectory)
        XCTAssertEqual(names.count, 84)
        let compared = try assertBrokerReproduces(names.filter { !Self.datedRecordings.contains($0) }, in: Recording.minBinDirectory)
        XCTAssertGreaterThan(compared, 150)
    }

    func testExpiredTokenHandshakeDiffersOnlyInTheExpiryDate() throws {
        for name in Self.datedRecordings.sorted() {
            let recording = try Recording(named: name, in: Recording.minBinDirectory)
            let produced = try replay(recording)
            let expected = recording.serverFrames.map(GoldenFrame.init(recorded:))
            XCTAssertEqual(produced.count, expected.count, name)
            for (ours, theirs) in zip(produced, expected) where ours != theirs {
                guard let ourValue = ours.value, let theirValue = theirs.value else { return XCTFail("\(name): \(ours) vs \(theirs)") }
                XCTAssertEqual(theirValue["data"]?["authError"]?["expiry"], [:], "\(name): the server's Date is an empty map")
                XCTAssertEqual(ourValue["data"]?["authError"]?["expiry"], "2020-09-13T12:27:40.000Z")
                XCTAssertNotNil(Self.withoutExpiry(ourValue))
                XCTAssertEqual(Self.withoutExpiry(ourValue), Self.withoutExpiry(theirValue), name)
            }
        }
    }

    private static func withoutExpiry(_ value: JSONValue) -> JSONValue? {
        guard case .object(var packet) = value, case .object(var data)? = packet["data"],
            case .object(var authError)? = data["authError"]
        else { return nil }
        authError["expiry"] = nil
        data["authError"] = .object(authError)
        data["id"] = nil
        packet["data"] = .object(data)
        return .object(packet)
    }
}
