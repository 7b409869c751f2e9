import XCTest
@testable import PubSubClient

final class AuthAndQueueTests: XCTestCase {
    static let token =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjQxMDI0NDQ4MDB9.kGADQPjeIv6USYeSV4bSZnLqwkxEGwaH1tX5ORHkL3M"

    // MARK: Auth

    func testSetAuthTokenInvokeIsAcknowledgedAndTokenDecoded() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive(##"{"event":"#setAuthToken","cid":1,"data":{"token":"\##(Self.token)"}}"##)
        XCTAssertEqual(harness.sent, [#"{"rid":1}"#])
        XCTAssertEqual(harness.session.auth.state, .authenticated)
        XCTAssertEqual(harness.session.auth.token?["username"], "alice")
        XCTAssertEqual(harness.session.auth.expiry, Date(timeIntervalSince1970: 4102444800))
        XCTAssertEqual(harness.savedTokens, [Self.token])
        XCTAssertTrue(
            harness.events.contains(
                .authStateChanged(.init(old: .unauthenticated, new: .authenticated, signedToken: Self.token, token: harness.session.auth.token))))
    }

    func testSetAuthTokenInvokeWithoutTokenGetsAnErrorReply() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive(##"{"event":"#setAuthToken","cid":4}"##)
        XCTAssertEqual(harness.sent, [#"{"rid":4,"error":{"message":"No token data provided by #setAuthToken event","name":"InvalidMessageError"}}"#])
        XCTAssertEqual(harness.session.auth.state, .unauthenticated)
    }

    func testRenewalEmitsAuthenticateWithoutStateChange() {
        var harness = SessionHarness()
        harness.open()
        harness.receive(##"{"event":"#setAuthToken","data":{"token":"a.eyJuIjoxfQ.s"}}"##)
        harness.events = []
        harness.receive(##"{"event":"#setAuthToken","data":{"token":"a.eyJuIjoyfQ.s"}}"##)
        XCTAssertEqual(harness.events, [.authenticated(.init(signedToken: "a.eyJuIjoyfQ.s", token: ["n": 2]))])
    }

    func testRemoveAuthTokenInvokeIsAcknowledgedAndDeletesTheStoredToken() {
        var harness = SessionHarness(storedToken: Self.token)
        harness.open(isAuthenticated: true)
        XCTAssertEqual(harness.session.auth.state, .authenticated)
        harness.sent = []
        harness.receive(##"{"event":"#removeAuthToken","cid":3}"##)
        XCTAssertEqual(harness.sent, [#"{"rid":3}"#])
        XCTAssertEqual(harness.removedTokens, 1)
        XCTAssertNil(harness.session.tokenForNextHandshake)
        XCTAssertEqual(harness.session.auth, .unauthenticated)
    }

    func testHandshakeRejectionOfTheTokenKeepsItStoredUntilTheServerRemovesIt() {
        var harness = SessionHarness(storedToken: "stale.token.x")
        harness.open(isAuthenticated: false)
        XCTAssertEqual(harness.session.tokenForNextHandshake, "stale.token.x")
        XCTAssertEqual(harness.removedTokens, 0)
    }

    func testAuthenticateMalformedAnswerIsAFailure() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.authenticate(Self.token, now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":2,"data":{"authError":null}}"#)
        guard case .failure(PubSubError.Code.invalidResponse)? = harness.completions[call] else { return XCTFail("expected invalidResponse") }
        XCTAssertEqual(harness.session.auth.state, .unauthenticated)
    }

    func testDeauthenticateWhileClosedSendsNothing() {
        var harness = SessionHarness(storedToken: Self.token)
        harness.session.deauthenticate(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.opens, [])
        XCTAssertEqual(harness.removedTokens, 1)
        XCTAssertTrue(harness.events.contains(.authTokenRemoved(.init(oldSignedToken: Self.token))))
    }

    func testTokenSetForTheNextHandshakeIsSentAndStored() {
        var harness = SessionHarness()
        harness.session.setTokenForNextHandshake(Self.token, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.savedTokens, [Self.token])
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        XCTAssertEqual(harness.sent.first, ##"{"event":"#handshake","data":{"authToken":"\##(Self.token)"},"cid":1}"##)
    }

    // MARK: Outbound queue

    func testQueuedCallsKeepTheirOrderAndTheirEnqueueTimeTimeouts() {
        var harness = SessionHarness()
        let slow = harness.session.invoke("a", data: nil, ackTimeout: .seconds(5), now: harness.now)
        try? harness.session.transmit("b", data: 1, now: harness.now)
        harness.drain()
        harness.advance(4_000)
        let late = harness.session.invoke("c", data: nil, ackTimeout: .seconds(5), now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.advance(1_000)
        XCTAssertEqual(harness.completions[slow], .failure(.timeout(event: "a")), "timer counted from the call")
        harness.receive(#"{"rid":1,"data":{"id":"x","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertEqual(Array(harness.sent.dropFirst()), [#"{"event":"b","data":1}"#, #"{"event":"c","cid":2}"#])
        harness.advance(3_999)
        XCTAssertNil(harness.completions[late])
        harness.advance(1)
        XCTAssertEqual(harness.completions[late], .failure(.timeout(event: "c")))
    }

    func testExpiredQueuedTransmitIsReportedNotSilentlyDropped() {
        var harness = SessionHarness()
        try? harness.session.transmit("b", data: 1, ackTimeout: .seconds(1), now: harness.now)
        harness.drain()
        harness.advance(1_000)
        XCTAssertTrue(harness.events.contains(.error(.queuedTransmitExpired(event: "b"))))
    }

    func testQueueIsBoundedInCount() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(maxQueuedMessages: 2))
        XCTAssertNoThrow(try harness.session.transmit("a", data: nil, now: harness.now))
        XCTAssertNoThrow(try harness.session.transmit("b", data: nil, now: harness.now))
        XCTAssertThrowsError(try harness.session.transmit("c", data: nil, now: harness.now)) { error in
            XCTAssertEqual(error as? PubSubError, .outboundQueueFull(event: "c", maxMessages: 2, maxBytes: 4 << 20))
        }
        let call = harness.session.invoke("d", data: nil, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.completions[call], .failure(.outboundQueueFull(event: "d", maxMessages: 2, maxBytes: 4 << 20)))
        XCTAssertEqual(harness.session.queuedCallCount, 2)
    }

    func testQueueIsBoundedInBytes() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(maxQueuedBytes: 100))
        XCTAssertNoThrow(try harness.session.transmit("a", data: .string(String(repeating: "x", count: 50)), now: harness.now))
        XCTAssertThrowsError(try harness.session.transmit("b", data: .string(String(repeating: "x", count: 50)), now: harness.now))
        XCTAssertNoThrow(try harness.session.transmit("c", data: nil, now: harness.now))
    }

    func testQueueSurvivesAReconnectButNotAManualDisconnect() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true, random: 0))
        let kept = harness.session.invoke("a", data: nil, ackTimeout: .seconds(60), now: harness.now)
        harness.drain()
        harness.serverClose(code: 1006)  // connect attempt failed; a reconnect is scheduled
        XCTAssertNil(harness.completions[kept])
        XCTAssertEqual(harness.session.queuedCallCount, 1)
        harness.session.disconnect(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.completions[kept], .failure(.badConnection(event: "a", kind: .disconnect, code: 1000, reason: "")))
        XCTAssertEqual(harness.session.queuedCallCount, 0)
    }

    func testQueuedCallsFailWhenNoReconnectFollows() {
        var harness = SessionHarness()
        let call = harness.session.invoke("a", data: nil, now: harness.now)
        harness.drain()
        harness.serverClose(code: 1006)
        XCTAssertEqual(harness.completions[call], .failure(.badConnection(event: "a", kind: .connectAbort, code: 1006, reason: "Socket hung up")))
    }

    func testCancelBatchFailsItsInvokesAndResendsSubscriptions() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.session.startBatch()
        let call = harness.session.invoke("a", data: nil, now: harness.now)
        harness.session.subscribe("room", now: harness.now)
        harness.session.cancelBatch()
        harness.drain()
        XCTAssertEqual(harness.completions[call], .failure(.batchCancelled(event: "a")))
        XCTAssertEqual(harness.sent, [##"{"event":"#subscribe","data":{"channel":"room"},"cid":4}"##])
        XCTAssertEqual(harness.session.pendingCallCount, 1)
    }

    // MARK: Addresses

    func testURLsAndTokenKeysFollowTheJSRules() throws {
        XCTAssertEqual(ServerAddress(hostname: "example.com", secure: true).url, "wss://example.com/socketcluster/")
        XCTAssertEqual(ServerAddress(hostname: "example.com", secure: true).defaultTokenName, "socketcluster.authToken.example.com:443")
        XCTAssertEqual(ServerAddress(hostname: "localhost", port: 8000).url, "ws://localhost:8000/socketcluster/")
        XCTAssertEqual(ServerAddress(hostname: "localhost").defaultTokenName, "socketcluster.authToken.localhost:80")
        let address = ServerAddress(
            host: "example.com:8443", secure: true,
            query: [.init("a", "1 2"), .init("b", "x"), .init("b", "y"), .init("tok", "a+b/c")])
        XCTAssertEqual(address.url, "wss://example.com:8443/socketcluster/?a=1+2&b=x&b=y&tok=a%2Bb%2Fc")
        XCTAssertEqual(ServerAddress(hostname: "h", port: 80, path: "/sc/").url, "ws://h/sc/")
        XCTAssertEqual(try ServerAddress(url: "ws://h:9/socketcluster").url, "ws://h:9/socketcluster", "never normalised")
        XCTAssertEqual(try ServerAddress(url: "wss://h/x/").defaultTokenName, "socketcluster.authToken.h:443")
        XCTAssertThrowsError(try ServerAddress(url: "http://h/"))
    }
}
