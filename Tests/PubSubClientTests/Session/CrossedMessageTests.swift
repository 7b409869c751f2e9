import XCTest
@testable import PubSubClient

/// A command of the client and a message of the server that cross on the wire: each side acts on
/// the other's message after its own, and both must still end in the same state. Each case was
/// found by the deterministic simulator (`swift run simulate`).
final class CrossedMessageTests: XCTestCase {
    static let token = AuthAndQueueTests.token

    // MARK: Kick-out crossing a subscribe

    func testKickOutThatCrossesAResubscribeKeepsTheChannel() {
        var harness = SessionHarness()
        harness.open()
        harness.session.subscribe("news", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":\#(harness.lastSentCid())}"#)
        XCTAssertEqual(harness.session.channelState("news"), .subscribed)
        // Unsubscribe and subscribe again; before the server reads either, it kicks the old
        // subscription out, then subscribes the channel again and answers.
        harness.session.unsubscribe("news", now: harness.now)
        harness.session.subscribe("news", now: harness.now)
        harness.drain()
        let resubscribe = harness.lastSentCid()
        harness.events = []
        harness.receive(##"{"event":"#kickOut","data":{"channel":"news","message":"out"}}"##)
        XCTAssertEqual(harness.session.channelState("news"), .pending)
        XCTAssertFalse(harness.events.contains { if case .kickedOut = $0 { true } else { false } })
        harness.receive(#"{"rid":\#(resubscribe)}"#)
        XCTAssertEqual(harness.session.channelState("news"), .subscribed, "the server holds the subscription, so must the client")
    }

    func testKickOutOfASubscribedChannelStillRemovesIt() {
        var harness = SessionHarness()
        harness.open()
        harness.session.subscribe("news", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":\#(harness.lastSentCid())}"#)
        harness.receive(##"{"event":"#kickOut","data":{"channel":"news","message":"out"}}"##)
        XCTAssertEqual(harness.session.channelState("news"), .unsubscribed)
        XCTAssertTrue(harness.events.contains(.kickedOut(.init(channel: "news", message: "out"))))
    }

    // MARK: Authenticate answer after deauthenticate

    func testAuthenticateAnswerAfterADeauthenticateLeavesTheClientUnauthenticated() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        let cid = harness.lastSentCid()
        // The server reads `#authenticate`, then the `#removeAuthToken` sent after it: it ends
        // unauthenticated, whatever it answered the first.
        harness.session.deauthenticate(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.sent.last, ##"{"event":"#removeAuthToken"}"##)
        harness.receive(#"{"rid":\#(cid),"data":{"isAuthenticated":true,"authError":null}}"#)
        XCTAssertEqual(harness.session.auth.state, .unauthenticated)
        XCTAssertNil(harness.session.tokenForNextHandshake, "the token deauthenticate removed is not stored again")
        guard case .success? = harness.completions[call] else { return XCTFail("the call completes with the server's answer") }
    }

    func testAuthenticateAfterADeauthenticateAuthenticates() {
        var harness = SessionHarness()
        harness.open()
        harness.session.deauthenticate(now: harness.now)
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":\#(harness.lastSentCid()),"data":{"isAuthenticated":true,"authError":null}}"#)
        XCTAssertEqual(harness.session.auth.state, .authenticated)
        guard case .success? = harness.completions[call] else { return XCTFail("expected success") }
    }

    // MARK: Subscribe calls that cannot be answered

    func testSubscribeWithAckWaitingForAuthTimesOutAndTheChannelStaysPending() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.subscribeWithAck("private", options: .init(waitForAuth: true), now: harness.now)
        harness.drain()
        XCTAssertNil(harness.completions[call])
        harness.advance(harness.session.configuration.ackTimeout.wholeMilliseconds - 1)
        XCTAssertNil(harness.completions[call])
        harness.advance(1)
        guard case .failure(PubSubError.Code.timeout)? = harness.completions[call] else { return XCTFail("expected a timeout") }
        XCTAssertEqual(harness.session.channelState("private"), .pending)
        harness.sent = []
        harness.receive(##"{"event":"#setAuthToken","data":{"token":"\##(Self.token)"}}"##)
        XCTAssertTrue(harness.sent.contains { $0.contains(#""channel":"private""#) }, "the subscription goes on once authenticated")
    }

    func testSubscribeWithAckOnAClosedClientTimesOut() {
        var harness = SessionHarness()
        let call = harness.session.subscribeWithAck("news", now: harness.now)
        harness.drain()
        harness.advance(harness.session.configuration.ackTimeout.wholeMilliseconds)
        guard case .failure(PubSubError.Code.timeout)? = harness.completions[call] else { return XCTFail("expected a timeout") }
    }

    func testAnsweredSubscribeWithAckDoesNotTimeOutLater() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.subscribeWithAck("news", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":\#(harness.lastSentCid())}"#)
        guard case .success? = harness.completions[call] else { return XCTFail("expected success") }
        harness.advance(harness.session.configuration.ackTimeout.wholeMilliseconds + 1)
        XCTAssertEqual(harness.completionOrder.filter { $0 == call }.count, 1)
        XCTAssertEqual(harness.session.channelState("news"), .subscribed)
    }
}

extension CrossedMessageTests {
    // MARK: Deauthenticate during the handshake

    func testDeauthenticateWhileTheHandshakeIsAnsweredLeavesTheClientUnauthenticated() {
        var harness = SessionHarness(storedToken: Self.token)
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        let handshake = harness.lastSentCid()
        XCTAssertTrue(harness.sent.last?.contains(Self.token) ?? false, "the handshake carries the stored token")
        harness.session.deauthenticate(now: harness.now)
        harness.drain()
        harness.sent = []
        harness.receive(#"{"rid":\#(handshake),"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":true}}"#)
        XCTAssertEqual(harness.sent, [##"{"event":"#removeAuthToken"}"##], "the server is told after the handshake")
        XCTAssertEqual(harness.session.auth.state, .unauthenticated, "as the server will be once it reads that")
    }
}

extension CrossedMessageTests {
    // MARK: An authenticate answer after its call timed out

    func testAnAuthenticateAnswerAfterTheTimeoutStillSetsTheAuthState() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        let cid = harness.lastSentCid()
        harness.advance(harness.session.configuration.ackTimeout.wholeMilliseconds)
        guard case .failure(PubSubError.Code.timeout)? = harness.completions[call] else { return XCTFail("expected a timeout") }
        // The server did authenticate the socket; its answer was only slow.
        harness.receive(#"{"rid":\#(cid),"data":{"isAuthenticated":true,"authError":null}}"#)
        XCTAssertEqual(harness.session.auth.state, .authenticated, "the client agrees with the server")
        XCTAssertEqual(harness.savedTokens, [Self.token])
        XCTAssertEqual(harness.completionOrder.filter { $0 == call }.count, 1, "the call stays completed once")
    }

    func testALateAuthenticateAnswerOnALaterConnectionIsIgnored() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.open()
        _ = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        let cid = harness.lastSentCid()
        harness.advance(harness.session.configuration.ackTimeout.wholeMilliseconds)
        harness.serverClose(code: 4000)
        harness.advance(0)
        harness.openTransport()
        harness.receive(#"{"rid":\#(harness.lastSentCid()),"data":{"id":"b","pingTimeout":20000,"isAuthenticated":false}}"#)
        harness.receive(#"{"rid":\#(cid),"data":{"isAuthenticated":true,"authError":null}}"#)
        XCTAssertEqual(harness.session.auth.state, .unauthenticated, "that answer belonged to the connection that ended")
    }

    // MARK: Subscribes in flight for channels no longer wanted

    func testTogglingAChannelKeepsOneSubscribeInFlight() {
        var harness = SessionHarness()
        harness.open()
        for _ in 0..<5 {
            harness.session.subscribe("news", now: harness.now)
            harness.session.unsubscribe("news", now: harness.now)
        }
        harness.session.subscribe("news", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.pendingCallCount, 1, "only the last #subscribe is waited for")
        harness.receive(#"{"rid":\#(harness.lastSentCid())}"#)
        XCTAssertEqual(harness.session.channelState("news"), .subscribed)
        XCTAssertEqual(harness.session.pendingCallCount, 0)
    }
}

extension CrossedMessageTests {
    // MARK: Deauthenticate before the connection is open

    func testDeauthenticateBeforeTheHandshakeCancelsTheQueuedAuthenticate() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.state, .connecting, "the queued call started a connection")
        harness.session.deauthenticate(now: harness.now)
        harness.drain()
        guard case .failure(PubSubError.Code.cancelled)? = harness.completions[call] else { return XCTFail("expected cancelled") }
        harness.openTransport()
        harness.receive(#"{"rid":\#(harness.lastSentCid()),"data":{"id":"a","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertFalse(harness.sent.contains { $0.contains("#authenticate") }, "nothing authenticates the server afterwards")
        XCTAssertEqual(harness.session.auth.state, .unauthenticated)
    }
}

extension CrossedMessageTests {
    // MARK: An authenticate cancelled after it was sent

    func testTheAnswerToACancelledAuthenticateStillSetsTheAuthState() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        let cid = harness.lastSentCid()
        harness.session.cancel(call, now: harness.now)
        harness.drain()
        guard case .failure(PubSubError.Code.cancelled)? = harness.completions[call] else { return XCTFail("expected cancelled") }
        // The server read the #authenticate all the same.
        harness.receive(#"{"rid":\#(cid),"data":{"isAuthenticated":true,"authError":null}}"#)
        XCTAssertEqual(harness.session.auth.state, .authenticated, "the client agrees with the server")
        XCTAssertEqual(harness.completionOrder.filter { $0 == call }.count, 1)
    }
}
