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
}
