import XCTest
import WireKit
@testable import PubSubClient

/// The session's event vocabulary says what a face needs outright, so no face infers a
/// boundary from the order of events; and the WireKit driver's error mapping.
final class SessionVocabularyTests: XCTestCase {
    static let token = AuthAndQueueTests.token

    func testHandshakeAuthChangeIsMarkedAndALaterOneIsNot() {
        var harness = SessionHarness(storedToken: Self.token)
        harness.open(isAuthenticated: true)
        let handshake = harness.takeEvents().filter { if case .authStateChanged = $0 { return true } else { return false } }
        XCTAssertEqual(
            handshake,
            [
                .authStateChanged(
                    .init(
                        old: .unauthenticated, new: .authenticated, signedToken: Self.token,
                        token: harness.session.auth.token, byHandshake: true))
            ])
        harness.receive(##"{"event":"#removeAuthToken"}"##)
        XCTAssertTrue(
            harness.events.contains(
                .authStateChanged(
                    .init(
                        old: .authenticated, new: .unauthenticated,
                        signedToken: nil, token: nil, byHandshake: false))))
    }

    func testDisconnectedCarriesTheTransportFailure() {
        var harness = SessionHarness()
        harness.open()
        let failure = TransportFailure(.connectionLost, message: "reset")
        harness.session.transportClosed(harness.transport!, code: 1006, reason: "reset", error: failure, now: harness.now)
        harness.drain()
        XCTAssertTrue(harness.events.contains(.disconnected(.init(code: 1006, reason: "reset", error: failure))))
        XCTAssertTrue(harness.events.contains(.closed(.init(code: 1006, reason: "reset", error: failure))))
    }

    func testNextActionDrainsEachActionOnce() {
        var session = ClientSession(configuration: SessionHarness.configuration())
        session.connect(now: MonotonicInstant(milliseconds: 0))
        var first: [SessionAction] = []
        while let action = session.nextAction() { first.append(action) }
        XCTAssertTrue(first.contains { if case .openTransport = $0 { return true } else { return false } })
        XCTAssertNil(session.nextAction())
        session.disconnect(now: MonotonicInstant(milliseconds: 1))
        var second: [SessionAction] = []
        while let action = session.nextAction() { second.append(action) }
        XCTAssertFalse(second.contains { if case .openTransport = $0 { return true } else { return false } })
        XCTAssertTrue(second.contains { if case .closeTransport = $0 { return true } else { return false } })
    }

    func testMalformedHandshakeResponseFailsTheHandshakeWith4003() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive(#"{"rid":1,"data":{"pingTimeout":20000}}"#)
        XCTAssertEqual(harness.closes.last?.code, 4003)
        XCTAssertTrue(harness.events.contains(.error(.invalidResponse(event: "#handshake", detail: "Handshake response has no string id"))))
        XCTAssertEqual(harness.session.state, .closed)
    }

    func testWireKitErrorsMapToTransportFailureKinds() {
        let cases: [(WebSocketError, TransportFailure.Kind, httpStatus: Int?, location: String?)] = [
            (.invalidURL("x"), .invalidRequest, nil, nil),
            (.transport(.hostNotFound(host: "h", detail: "d")), .hostNotFound, nil, nil),
            (.transport(.connectionRefused(host: "h", port: 1)), .connectionRefused, nil, nil),
            (.transport(.connectTimedOut(host: "h", port: 1, timeout: .seconds(1))), .timedOut, nil, nil),
            (.transport(.connectionReset), .connectionLost, nil, nil),
            (.transport(.proxy(.authenticationRequired(realm: "r", credentialsSent: false))), .proxy, nil, nil),
            (.handshakeRejected(status: 404, headers: HTTPHeaders(), body: []), .upgradeRejected, 404, nil),
            (.redirected(status: 301, location: "/x", headers: HTTPHeaders()), .redirected, 301, "/x"),
            (.redirected(status: 302, location: nil, headers: HTTPHeaders()), .redirected, 302, nil),
            (.invalidHandshakeResponse("x"), .invalidHandshake, nil, nil),
            (.invalidUTF8("x"), .protocolViolation, nil, nil),
            (.messageTooBig(size: 2, limit: 1), .protocolViolation, nil, nil),
            (.connectionClosed("x"), .connectionLost, nil, nil),
        ]
        for (error, kind, httpStatus, location) in cases {
            let failure = TransportFailure(error)
            XCTAssertEqual(failure.kind, kind, "\(error)")
            XCTAssertEqual(failure.httpStatus, httpStatus, "\(error)")
            XCTAssertEqual(failure.location, location, "\(error)")
            XCTAssertEqual(failure.message, error.description)
            XCTAssertEqual(failure.webSocketError, error)
        }
    }
}
