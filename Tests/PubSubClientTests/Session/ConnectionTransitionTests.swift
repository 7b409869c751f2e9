import XCTest
@testable import PubSubClient

/// The connection enum: each phase carries its own data, and leaving a phase drops it.
final class ConnectionTransitionTests: XCTestCase {
    func testPhasesCarryTheirData() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        guard case .closed(reconnectAt: nil) = harness.session.connection else { return XCTFail("starts closed") }
        harness.session.connect(now: harness.now)
        harness.drain()
        guard case .connecting(let link) = harness.session.connection else { return XCTFail("connecting") }
        XCTAssertFalse(link.isOpen)
        XCTAssertEqual(link.openDeadline, harness.now + harness.session.configuration.connectTimeout)
        harness.openTransport()
        guard case .connecting(let opened) = harness.session.connection else { return XCTFail("still connecting") }
        XCTAssertTrue(opened.isOpen)
        XCTAssertNil(opened.openDeadline, "the open deadline ends when the WebSocket opens")
        harness.receive(#"{"rid":1,"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":false}}"#)
        guard case .open(let link2, let info) = harness.session.connection else { return XCTFail("open") }
        XCTAssertEqual(link2.transport, link.transport)
        XCTAssertEqual(info.id, "abc")
        XCTAssertEqual(harness.session.socketID, "abc")
        harness.serverClose(code: 4000)
        guard case .closed(let reconnectAt?) = harness.session.connection else { return XCTFail("closed, reconnect scheduled") }
        XCTAssertEqual(reconnectAt, harness.now, "4000 reconnects at once")
        XCTAssertNil(harness.session.socketID)
        XCTAssertNil(harness.session.handshake)
    }

    func testClosingDropsTheServerRequestsOfThatConnection() {
        var harness = SessionHarness()
        harness.open()
        harness.receive(#"{"event":"work","data":1,"cid":7}"#)
        guard case .request(let request)? = harness.events.last else { return XCTFail("\(harness.events)") }
        let id = request.id
        XCTAssertTrue(harness.session.isAwaitingResponse(id))
        harness.serverClose(code: 1000)
        XCTAssertFalse(harness.session.isAwaitingResponse(id))
        XCTAssertThrowsError(try harness.session.respond(to: id, with: .success(nil), now: harness.now)) { error in
            XCTAssertEqual(error as? PubSubError, .requestExpired(id))
        }
    }

}
