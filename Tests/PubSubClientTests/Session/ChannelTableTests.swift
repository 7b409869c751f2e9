import XCTest
@testable import PubSubClient

final class ChannelTableTests: XCTestCase {
    private func subscribeChannels(_ sent: [String]) -> [String] {
        sent.compactMap { text in
            guard let value = try? JSONValue(parsing: text), value["event"] == "#subscribe" else { return nil }
            return value["data"]?["channel"]?.stringValue
        }
    }

    func testPendingChannelsAreSubscribedByPriorityThenInsertionOrder() {
        var harness = SessionHarness()
        harness.session.subscribe("a", now: harness.now)
        harness.session.subscribe("b", options: SubscriptionOptions(priority: 1), now: harness.now)
        harness.session.subscribe("c", options: SubscriptionOptions(priority: 9), now: harness.now)
        harness.session.subscribe("d", options: SubscriptionOptions(priority: 1), now: harness.now)
        XCTAssertEqual(harness.session.state, .closed, "subscribe alone does not connect")
        harness.open()
        XCTAssertEqual(subscribeChannels(harness.sent), ["c", "b", "d", "a"])
    }

    func testSubscribeIsAlwaysAnInvokeWithWaitForAuthAndTruthyDataOnly() {
        var harness = SessionHarness()
        harness.open(isAuthenticated: false)
        harness.sent = []
        harness.session.subscribe("x", options: SubscriptionOptions(data: 0), now: harness.now)
        harness.session.subscribe("y", options: SubscriptionOptions(data: ["k": true]), now: harness.now)
        harness.drain()
        XCTAssertEqual(
            harness.sent,
            [
                ##"{"event":"#subscribe","data":{"channel":"x"},"cid":2}"##,
                ##"{"event":"#subscribe","data":{"channel":"y","data":{"k":true}},"cid":3}"##,
            ])
    }

    func testOnlyOneSubscribeInFlightPerChannel() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.session.subscribe("x", now: harness.now)
        harness.session.subscribe("x", now: harness.now)
        _ = harness.session.subscribeWithAck("x", now: harness.now)
        harness.drain()
        XCTAssertEqual(subscribeChannels(harness.sent), ["x"])
    }

    func testWaitForAuthChannelWaitsUntilAuthenticated() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.session.subscribe("secure", options: SubscriptionOptions(waitForAuth: true), now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.sent, [])
        XCTAssertEqual(harness.session.channelState("secure"), .pending)
        harness.receive(##"{"event":"#setAuthToken","data":{"token":"a.eyJ1IjoxfQ.c"}}"##)
        XCTAssertEqual(harness.sent, [##"{"event":"#subscribe","data":{"channel":"secure","waitForAuth":true},"cid":2}"##])
    }

    func testFirstSubscribeFailureDropsTheChannel() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.subscribeWithAck("p", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":2,"error":{"message":"no","name":"ForbiddenError"}}"#)
        XCTAssertEqual(harness.session.channelState("p"), .unsubscribed)
        XCTAssertEqual(harness.completions[call], .failure(.remote(RemoteError(name: "ForbiddenError", message: "no"))))
        XCTAssertTrue(
            harness.events.contains(.subscribeFailed(.init(channel: "p", error: .remote(RemoteError(name: "ForbiddenError", message: "no")), willRetry: false)))
        )
    }

    func testChannelsAreResubscribedAfterReconnectAndAFailedResubscribeStaysPending() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true, random: 0))
        harness.open()
        harness.session.subscribe("room", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":2}"#)
        XCTAssertEqual(harness.session.channelState("room"), .subscribed)
        harness.serverClose(code: 1006)
        XCTAssertEqual(harness.session.channelState("room"), .pending)
        XCTAssertTrue(harness.events.contains(.channelStateChanged(.init(channel: "room", old: .subscribed, new: .pending))))
        harness.advance(10_000)
        harness.sent = []
        harness.openTransport()
        harness.receive(#"{"rid":3,"data":{"id":"b","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertEqual(subscribeChannels(harness.sent), ["room"])
        harness.receive(#"{"rid":4,"error":{"message":"busy","name":"BrokerError"}}"#)
        XCTAssertEqual(harness.session.channelState("room"), .pending, "kept for the next attempt")
        XCTAssertTrue(
            harness.events.contains(
                .subscribeFailed(.init(channel: "room", error: .remote(RemoteError(name: "BrokerError", message: "busy")), willRetry: true))))
        harness.serverClose(code: 1006)
        harness.advance(10_000)
        harness.sent = []
        harness.openTransport()
        harness.receive(#"{"rid":5,"data":{"id":"c","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertEqual(subscribeChannels(harness.sent), ["room"])
        harness.receive(#"{"rid":6}"#)
        XCTAssertEqual(harness.session.channelState("room"), .subscribed)
    }

    func testPublicationsReachOnlyPendingOrSubscribedChannels() {
        var harness = SessionHarness()
        harness.open()
        harness.session.subscribe("room", now: harness.now)
        harness.drain()
        harness.events = []
        harness.receive(##"{"event":"#publish","data":{"channel":"room","data":1}}"##)
        harness.receive(##"{"event":"#publish","data":{"channel":"other","data":2}}"##)
        XCTAssertEqual(harness.events, [.publication(.init(channel: "room", data: 1))])
    }

    func testUnsubscribeIsATransmitWithTheBareNameAndIgnoresALateSubscribeAnswer() {
        var harness = SessionHarness()
        harness.open()
        harness.session.subscribe("room", now: harness.now)
        harness.drain()
        harness.sent = []
        harness.session.unsubscribe("room", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.sent, [##"{"event":"#unsubscribe","data":"room"}"##])
        harness.receive(#"{"rid":2}"#)
        XCTAssertEqual(harness.session.channelState("room"), .unsubscribed)
    }

    func testUnsubscribeWithAckIsAnInvoke() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        let call = harness.session.unsubscribeWithAck("zzz", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.sent, [##"{"event":"#unsubscribe","data":"zzz","cid":2}"##])
        harness.receive(#"{"rid":2,"error":{"message":"not subscribed","name":"BrokerError"}}"#)
        XCTAssertEqual(harness.completions[call], .failure(.remote(RemoteError(name: "BrokerError", message: "not subscribed"))))
    }

    func testKickOutRemovesTheChannelWithoutSendingUnsubscribe() {
        var harness = SessionHarness()
        harness.open()
        harness.session.subscribe("room", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":2}"#)
        harness.sent = []
        harness.receive(##"{"event":"#kickOut","data":{"channel":"room","message":"bye"}}"##)
        XCTAssertEqual(harness.sent, [])
        XCTAssertEqual(harness.session.channelState("room"), .unsubscribed)
        XCTAssertTrue(harness.events.contains(.kickedOut(.init(channel: "room", message: "bye"))))
    }

    func testChannelPrefixIsAddedOnTheWireAndStrippedInbound() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(channelPrefix: "app/"))
        harness.open()
        harness.sent = []
        harness.session.subscribe("room", now: harness.now)
        try? harness.session.publish("room", data: 1, now: harness.now)
        harness.drain()
        XCTAssertEqual(
            harness.sent,
            [
                ##"{"event":"#subscribe","data":{"channel":"app/room"},"cid":2}"##,
                ##"{"event":"#publish","data":{"channel":"app/room","data":1}}"##,
            ])
        harness.receive(##"{"event":"#publish","data":{"channel":"app/room","data":1}}"##)
        XCTAssertEqual(harness.events.last, .publication(.init(channel: "room", data: 1)))
    }

    func testSubscribeAckWaitersFailWhenTheConnectionDrops() {
        var harness = SessionHarness()
        harness.open()
        let call = harness.session.subscribeWithAck("room", now: harness.now)
        harness.drain()
        harness.serverClose(code: 1006)
        XCTAssertEqual(harness.completions[call], .failure(.badConnection(event: "#subscribe", kind: .disconnect, code: 1006, reason: "Socket hung up")))
        XCTAssertEqual(harness.session.channelState("room"), .pending)
    }
}
