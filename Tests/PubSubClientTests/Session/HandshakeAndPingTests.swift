import XCTest
@testable import PubSubClient

final class HandshakeAndPingTests: XCTestCase {
    func testHandshakeIsTheFirstFrameAndNothingElseGoesOutUntilItsResponse() {
        var harness = SessionHarness()
        harness.session.subscribe("room", now: harness.now)
        _ = harness.session.invoke("early", data: 1, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.state, .connecting, "a call on a closed client starts connecting")
        harness.openTransport()
        XCTAssertEqual(harness.takeSent(), [##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##])
        harness.receive("")  // a ping before the handshake answer is still answered
        XCTAssertEqual(harness.takeSent(), [""])
        harness.receive(#"{"rid":1,"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertEqual(
            harness.takeSent(),
            [
                ##"{"event":"#subscribe","data":{"channel":"room"},"cid":2}"##,
                #"{"event":"early","data":1,"cid":3}"#,
            ], "pending subscribes first, then the outbound queue")
        let connected = harness.events.firstIndex { if case .connected = $0 { return true } else { return false } }
        let requested = harness.events.firstIndex(of: .subscribeRequested(.init(channel: "room", options: SubscriptionOptions())))
        XCTAssertNotNil(connected)
        XCTAssertLessThan(requested ?? .max, connected ?? .min)
        XCTAssertEqual(harness.session.socketID, "abc")
    }

    func testRejectedHandshakeClosesWithTheStatusCodeAndReportsConnectAbort() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive(#"{"rid":1,"error":{"message":"go away","name":"BannedError","statusCode":4501}}"#)
        XCTAssertEqual(harness.closes.last?.code, 4501)
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 4501, reason: "BannedError: go away"))))
        XCTAssertFalse(harness.events.contains { if case .connected = $0 { return true } else { return false } })
        XCTAssertNil(harness.session.reconnectDeadline, "4501 is permanent")
        XCTAssertTrue(
            harness.events.contains {
                if case .error(let error) = $0, error.code == .handshakeRejected, error.closeCode == 4501 {
                    return error.remote?.name == "BannedError" && error.name == "BannedError"
                }
                return false
            })
    }

    func testRejectedHandshakeWithoutStatusCodeUses4003() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive(#"{"rid":1,"error":{"message":"no"}}"#)
        XCTAssertEqual(harness.closes.last?.code, 4003)
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 4003, reason: "Error: no"))))
    }

    func testHandshakeTimeoutClosesWith4003() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.advance(9_999)
        XCTAssertEqual(harness.session.state, .connecting)
        harness.advance(1)
        XCTAssertEqual(harness.closes.last?.code, 4003)
        XCTAssertTrue(harness.events.contains(.error(.timeout(event: "#handshake"))))
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 4003, reason: "TimeoutError: Event response for #handshake event timed out"))))
    }

    func testConnectTimeoutClosesWith4007() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.nextDeadline, harness.now.advanced(by: 20_000))
        harness.advance(20_000)
        XCTAssertEqual(harness.closes.last?.code, 4007)
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 4007, reason: "Client connection establishment timed out"))))
        XCTAssertTrue(harness.events.contains(.error(.socketProtocol(code: 4007, reason: "Client connection establishment timed out"))))
    }

    func testEventsFromAnAbandonedTransportAreIgnored() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        let old = harness.transport!
        harness.advance(20_000)  // 4007
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.session.transportOpened(old, now: harness.now)
        harness.session.transportClosed(old, code: 1006, reason: "", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.state, .connecting)
        XCTAssertEqual(harness.sent, [])
    }

    func testProtocol2AnswersEmptyFramesOnly() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive("")
        harness.receive("#1")
        XCTAssertEqual(harness.sent, [""])
        XCTAssertTrue(harness.events.contains(.raw(.text("#1"))))
    }

    func testProtocol1AnswersHash1WithHash2() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(protocolVersion: .v1))
        harness.open()
        harness.sent = []
        harness.receive("#1")
        harness.receive("")
        XCTAssertEqual(harness.sent, ["#2"])
    }

    func testAutomaticAnswersBothPings() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(protocolVersion: .automatic))
        harness.open()
        harness.sent = []
        harness.receive("#1")
        harness.receive("")
        XCTAssertEqual(harness.sent, ["#2", ""])
    }

    func testPingsAreNeverBatched() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.session.startBatch()
        harness.receive("")
        XCTAssertEqual(harness.sent, [""])
    }

    func testPingTimerUsesConnectTimeoutBeforeTheHandshakeAndPingTimeoutAfter() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        XCTAssertEqual(harness.session.pingTimeout, .seconds(20))
        harness.receive(#"{"rid":1,"data":{"id":"abc","pingTimeout":3000,"isAuthenticated":false}}"#)
        XCTAssertEqual(harness.session.pingTimeout, .seconds(3))
        harness.advance(2_500)
        harness.receive("")  // restarts the timer
        harness.advance(2_999)
        XCTAssertEqual(harness.session.state, .open)
        harness.receive(#"{"event":"other","data":1}"#)  // other traffic does not restart it
        harness.advance(1)
        XCTAssertEqual(harness.session.state, .closed)
        XCTAssertEqual(harness.closes.last?.code, 4000)
        XCTAssertEqual(harness.closes.last?.reason, "")
        XCTAssertTrue(harness.events.contains(.disconnected(.init(code: 4000, reason: "Server ping timed out"))))
    }

    func testInboundBatchIsProcessedInOrderAndUnknownRidIgnored() {
        var harness = SessionHarness()
        harness.open()
        harness.events = []
        harness.receive(#"[{"event":"a","data":1},{"rid":99},7,{"event":"b"}]"#)
        XCTAssertEqual(harness.events, [.message(.init(event: "a", data: 1)), .raw(.json(7)), .message(.init(event: "b", data: nil))])
    }

    func testNonJSONAndBinaryFramesAreSurfacedAsRaw() {
        var harness = SessionHarness()
        harness.open()
        harness.events = []
        harness.receive("hello")
        harness.session.transportReceived(binary: [1, 2, 3], from: harness.transport!, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.events, [.raw(.text("hello")), .raw(.binary(Data([1, 2, 3])))])
    }

    func testMalformedBuiltInsAreReportedAndTheConnectionLives() {
        var harness = SessionHarness()
        harness.open()
        harness.events = []
        harness.receive(##"{"event":"#publish","data":{"channel":5}}"##)
        harness.receive(##"{"event":"#kickOut","data":"x"}"##)
        XCTAssertEqual(harness.events.count, 2)
        XCTAssertTrue(harness.events.allSatisfy { if case .error(.malformedPacket) = $0 { return true } else { return false } })
        XCTAssertEqual(harness.session.state, .open)
    }

    func testServerInvokeIsAnsweredExactlyOnce() throws {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive(#"{"event":"ask","cid":7,"data":{"q":1}}"#)
        guard case .request(let request)? = harness.events.last, request.event == "ask", request.data == ["q": 1] else { return XCTFail("no request") }
        let id = request.id
        XCTAssertTrue(harness.session.isAwaitingResponse(id))
        try harness.session.respond(to: id, with: .success(["a": 2]), now: harness.now)
        XCTAssertThrowsError(try harness.session.respond(to: id, with: .success(nil), now: harness.now)) { error in
            XCTAssertEqual(error as? PubSubError, .alreadyResponded(id))
        }
        harness.drain()
        XCTAssertEqual(harness.sent, [#"{"rid":7,"data":{"a":2}}"#])
        harness.receive(#"{"event":"ask","cid":8}"#)
        guard case .request(let request)? = harness.events.last else { return XCTFail("no request") }
        let second = request.id
        harness.serverClose(code: 1006)
        XCTAssertThrowsError(try harness.session.respond(to: second, with: .success(nil), now: harness.now)) { error in
            XCTAssertEqual(error as? PubSubError, .requestExpired(second))
        }
    }

    func testServerCloseReasonIsKeptAndStandardTextFillsAnEmptyOne() {
        var harness = SessionHarness()
        harness.open()
        harness.serverClose(code: 4321, reason: "asked")
        XCTAssertTrue(harness.events.contains(.disconnected(.init(code: 4321, reason: "asked"))))
        XCTAssertTrue(harness.events.contains(.closed(.init(code: 4321, reason: "asked"))))
        var other = SessionHarness()
        other.open()
        other.serverClose(code: 4001)
        XCTAssertTrue(other.events.contains(.disconnected(.init(code: 4001, reason: "Client pong timed out"))))
        var normal = SessionHarness()
        normal.open()
        normal.session.disconnect(now: normal.now)
        normal.drain()
        XCTAssertTrue(normal.events.contains(.disconnected(.init(code: 1000, reason: ""))))
        XCTAssertFalse(normal.events.contains { if case .error = $0 { return true } else { return false } })
    }
}

import Foundation
