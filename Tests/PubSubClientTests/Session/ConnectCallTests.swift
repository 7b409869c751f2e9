import XCTest
@testable import PubSubClient

/// `connect` is a call like any other: it gets a `CallID` and the session completes it, with the
/// handshake or with why the attempt ended before it.
final class ConnectCallTests: XCTestCase {
    /// The server's answer to the handshake just sent.
    private func answerHandshake(_ harness: inout SessionHarness) {
        let cid = harness.lastSentCid()
        harness.receive(#"{"rid":\#(cid),"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":false}}"#)
    }

    private func eventIndex(_ harness: SessionHarness, _ match: (SessionEvent) -> Bool) -> Int? {
        harness.events.firstIndex(where: match)
    }

    func testCompletesWithTheHandshakeJustBeforeTheConnectedEvent() throws {
        var harness = SessionHarness()
        harness.session.subscribe("room", now: harness.now)
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        XCTAssertNil(harness.connects[call], "not before the handshake response")
        answerHandshake(&harness)
        let completion = try XCTUnwrap(harness.connects[call])
        let info = try completion.result.get()
        XCTAssertEqual(info.id, "abc")
        XCTAssertEqual(info.pingTimeout, .seconds(20))
        XCTAssertEqual(info, harness.session.handshake)
        let connected = eventIndex(harness) { if case .connected = $0 { return true } else { return false } }
        XCTAssertEqual(completion.eventsBefore, connected, "after the auth and subscribe events, before connected")
        XCTAssertNotNil(eventIndex(harness) { $0 == .subscribeRequested(.init(channel: "room", options: SubscriptionOptions())) })
    }

    func testWhenOpenCompletesAtOnceWithoutANewAttempt() throws {
        var harness = SessionHarness()
        harness.open()
        let opens = harness.opens.count
        let events = harness.events.count
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        XCTAssertEqual(try harness.connects[call]?.result.get().id, "abc")
        XCTAssertEqual(harness.opens.count, opens)
        XCTAssertEqual(harness.events.count, events, "nothing else happens")
        XCTAssertEqual(harness.session.state, .open)
    }

    func testRejectedHandshakeFailsWithConnectionFailed() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive(#"{"rid":1,"error":{"message":"go away","name":"BannedError","statusCode":4501}}"#)
        XCTAssertEqual(harness.connects[call]?.result.failure, .connectionFailed(code: 4501, reason: "BannedError: go away"))
        let abort = eventIndex(harness) { $0 == .connectAbort(.init(code: 4501, reason: "BannedError: go away")) }
        XCTAssertNotNil(abort)
        XCTAssertEqual(harness.connects[call]?.eventsBefore, abort, "just before connectAbort")
    }

    func testTransportFailureBeforeOpenFailsWithTheTransportsReason() throws {
        var harness = SessionHarness()
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        let transport = try XCTUnwrap(harness.transport)
        let failure = TransportFailure(.connectionRefused, message: "Connection refused")
        harness.session.transportClosed(transport, code: 1006, reason: "", error: failure, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.connects[call]?.result.failure, .transport(failure))
        XCTAssertEqual(harness.session.state, .closed)
    }

    func testTransportClosedBeforeOpenWithoutAReasonFailsWithItsCode() throws {
        var harness = SessionHarness()
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.serverClose(code: 4500, reason: "full")
        XCTAssertEqual(harness.connects[call]?.result.failure, .connectionFailed(code: 4500, reason: "full"))
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 4500, reason: "full"))))
    }

    func testConnectTimeoutFailsWith4007() {
        var harness = SessionHarness()
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.advance(19_999)
        XCTAssertNil(harness.connects[call])
        harness.advance(1)
        XCTAssertEqual(
            harness.connects[call]?.result.failure,
            .connectionFailed(code: 4007, reason: "Client connection establishment timed out"))
    }

    func testHandshakeTimeoutFailsWith4003() {
        var harness = SessionHarness()
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.advance(9_999)
        XCTAssertNil(harness.connects[call])
        harness.advance(1)
        XCTAssertEqual(
            harness.connects[call]?.result.failure,
            .connectionFailed(code: 4003, reason: "TimeoutError: Event response for #handshake event timed out"))
    }

    func testDisconnectWhileConnectingFailsTheCall() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.session.disconnect(code: 4100, reason: "bye", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.connects[call]?.result.failure, .connectionFailed(code: 4100, reason: "bye"))
        XCTAssertEqual(harness.closes.last?.code, 4100)
        XCTAssertNil(harness.session.reconnectDeadline, "disconnect stops reconnecting")
        // A late handshake response from the abandoned transport completes nothing.
        answerHandshake(&harness)
        XCTAssertEqual(harness.connects.count, 1)
    }

    func testSecondConnectWhileConnectingJoinsTheAttempt() throws {
        var harness = SessionHarness()
        let first = harness.session.connect(now: harness.now)
        harness.drain()
        let second = harness.session.connect(now: harness.now)
        harness.drain()
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(harness.opens.count, 1, "one attempt")
        harness.openTransport()
        answerHandshake(&harness)
        XCTAssertEqual(try harness.connects[first]?.result.get().id, "abc")
        XCTAssertEqual(try harness.connects[second]?.result.get().id, "abc")
    }

    func testSecondConnectWhileConnectingFailsWithTheAttempt() {
        var harness = SessionHarness()
        let first = harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        let second = harness.session.connect(now: harness.now)
        harness.drain()
        harness.serverClose(code: 4500)
        XCTAssertEqual(harness.connects[first]?.result.failure, harness.connects[second]?.result.failure)
        guard let failure = harness.connects[first]?.result.failure, failure.code == .connectionFailed, failure.closeCode == 4500 else {
            return XCTFail("\(String(describing: harness.connects[first]))")
        }
    }

    func testAFailedAttemptFailsTheCallEvenThoughAReconnectFollows() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.serverClose(code: 1006)
        XCTAssertNotNil(harness.connects[call]?.result.failure)
        let reconnectAt = try? XCTUnwrap(harness.session.reconnectDeadline)
        XCTAssertNotNil(reconnectAt, "a reconnect follows")
        // The reconnect's success does not complete the failed call again (the harness checks).
        harness.advance(harness.now.distance(to: reconnectAt ?? harness.now))
        harness.openTransport()
        answerHandshake(&harness)
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertEqual(harness.connects.count, 1)
    }

    func testConnectDuringAScheduledReconnectStartsAtOnce() throws {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.open()
        harness.serverClose(code: 1006)
        XCTAssertNotNil(harness.session.reconnectDeadline)
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.state, .connecting)
        XCTAssertNil(harness.session.reconnectDeadline)
        harness.openTransport()
        answerHandshake(&harness)
        XCTAssertEqual(try harness.connects[call]?.result.get().id, "abc")
    }

    func testReconnectWhileConnectingFailsTheCallAndStartsAnewAttempt() {
        var harness = SessionHarness()
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        harness.session.reconnect(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.opens.count, 2)
        XCTAssertEqual(harness.session.state, .connecting)
        guard let failure = harness.connects[call]?.result.failure, failure.code == .connectionFailed, failure.closeCode == 1000 else {
            return XCTFail("\(String(describing: harness.connects[call]))")
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
