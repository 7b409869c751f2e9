import XCTest
@testable import PubSubClient

/// An idle connected session asks to be woken only for the server's missing ping: its one
/// deadline is the ping timeout after the latest ping, and nothing answered leaves an earlier one.
final class IdleSessionDeadlineTests: XCTestCase {
    func testAnIdleSessionsOnlyDeadlineIsThePingTimeoutAfterTheLatestPing() {
        var harness = SessionHarness()
        harness.open(pingTimeout: 20_000)
        _ = harness.takeSent()
        _ = harness.takeEvents()
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertEqual(
            harness.session.nextDeadline, harness.now.advanced(by: 20_000),
            "after the handshake: the ping timeout, nothing sooner (the handshake's own ack deadline is gone)")
        for _ in 0..<5 {
            harness.advance(8_000)  // the server's ping interval
            XCTAssertTrue(harness.takeEvents().isEmpty, "nothing happens between pings")
            harness.receive("")
            XCTAssertEqual(harness.takeSent(), [""], "the pong")
            XCTAssertEqual(harness.session.nextDeadline, harness.now.advanced(by: 20_000))
        }
    }

    func testAnsweredCallsLeaveNoDeadlineBehind() {
        var harness = SessionHarness()
        harness.open(pingTimeout: 20_000)
        _ = harness.session.invoke("echo", data: 1, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.nextDeadline, harness.now.advanced(by: 10_000), "the call's ack timeout")
        harness.receive(#"{"rid":\#(harness.lastSentCid()),"data":1}"#)
        XCTAssertEqual(harness.session.nextDeadline, harness.now.advanced(by: 20_000), "back to the ping timeout alone")
    }

    func testWithoutPingTimeoutsAnIdleSessionHasNoDeadlineAtAll() {
        var configuration = SessionHarness.configuration()
        configuration.pingTimeoutDisabled = true
        var harness = SessionHarness(configuration: configuration)
        harness.open(pingTimeout: 20_000)
        harness.advance(60_000)
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertNil(harness.session.nextDeadline)
    }
}
