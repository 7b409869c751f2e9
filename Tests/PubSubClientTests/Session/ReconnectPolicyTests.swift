import XCTest
@testable import PubSubClient

final class ReconnectPolicyTests: XCTestCase {
    func testDefaultsAreTheJSClientDefaults() {
        let policy = ReconnectPolicy()
        XCTAssertEqual(policy.initialDelay, .seconds(10))
        XCTAssertEqual(policy.randomness, .seconds(10))
        XCTAssertEqual(policy.multiplier, 1.5)
        XCTAssertEqual(policy.maxDelay, .seconds(60))
    }

    func testBackOffSequenceWithFixedRandomSource() {
        let policy = ReconnectPolicy()
        XCTAssertEqual((0..<5).map { policy.delay(exponent: $0, immediate: false, random: 0).wholeMilliseconds }, [10_000, 15_000, 22_500, 33_750, 50_625])
        XCTAssertEqual(policy.delay(exponent: 5, immediate: false, random: 0).wholeMilliseconds, 60_000)
        XCTAssertEqual((0..<3).map { policy.delay(exponent: $0, immediate: false, random: 0.5).wholeMilliseconds }, [15_000, 22_500, 33_750])
        XCTAssertEqual(policy.delay(exponent: 0, immediate: false, random: 0.99999).wholeMilliseconds, 20_000)
    }

    func testObservedSpecSequence() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(200), randomness: .zero, multiplier: 2, maxDelay: .milliseconds(1000))
        XCTAssertEqual((0..<5).map { policy.delay(exponent: $0, immediate: false, random: 0.7).wholeMilliseconds }, [200, 400, 800, 1000, 1000])
    }

    func testImmediateOnlyForTheFirstAttempt() {
        let policy = ReconnectPolicy()
        XCTAssertEqual(policy.delay(exponent: 0, immediate: true, random: 0.5).wholeMilliseconds, 0)
        XCTAssertEqual(policy.delay(exponent: 1, immediate: true, random: 0).wholeMilliseconds, 15_000)
    }

    // MARK: Through the session

    private func scheduledDelays(_ events: [SessionEvent]) -> [Int64] {
        events.compactMap { if case .reconnectScheduled(let retry) = $0 { return retry.delay.wholeMilliseconds } else { return nil } }
    }

    func testSessionBacksOffOnRepeatedConnectFailuresAndResetsAfterSuccess() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true, random: 0))
        harness.session.connect(now: harness.now)
        harness.drain()
        for _ in 0..<4 {
            harness.serverClose(code: 1006)
            let delay = harness.session.reconnectDeadline.map { harness.now.distance(to: $0) } ?? -1
            XCTAssertNil(harness.session.nextDeadline.flatMap { $0 < harness.session.reconnectDeadline! ? $0 : nil })
            harness.advance(delay)
            XCTAssertEqual(harness.session.state, .connecting)
        }
        XCTAssertEqual(scheduledDelays(harness.takeEvents()), [10_000, 15_000, 22_500, 33_750])
        XCTAssertEqual(harness.opens.count, 5)
        harness.openTransport()
        harness.receive(#"{"rid":\#(harness.lastSentCid()),"data":{"id":"x","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertEqual(harness.session.connectAttempts, 0)
        harness.serverClose(code: 1011)
        XCTAssertEqual(scheduledDelays(harness.takeEvents()), [10_000])
    }

    func testPingTimeoutCloseReconnectsImmediately() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.open(pingTimeout: 2000)
        harness.advance(2000)
        XCTAssertEqual(harness.closes.last?.code, 4000)
        XCTAssertTrue(harness.events.contains(.disconnected(.init(code: 4000, reason: "Server ping timed out"))))
        XCTAssertEqual(harness.opens.count, 2, "reconnected at once")
    }

    func testNoReconnectAfter1000OrCodesFrom4500OrManualDisconnect() {
        for code: UInt16 in [1000, 4500, 4501] {
            var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
            harness.open()
            harness.serverClose(code: code)
            XCTAssertNil(harness.session.reconnectDeadline, "\(code)")
        }
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.open()
        harness.session.disconnect(code: 4100, reason: "bye", now: harness.now)
        harness.drain()
        XCTAssertNil(harness.session.reconnectDeadline)
        XCTAssertEqual(harness.closes.last?.code, 4100)
        XCTAssertEqual(harness.closes.last?.reason, "bye")
    }

    func testDisconnectWhileWaitingCancelsTheScheduledReconnect() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        harness.open()
        harness.serverClose(code: 1006)
        XCTAssertNotNil(harness.session.reconnectDeadline)
        harness.session.disconnect(now: harness.now)
        harness.drain()
        XCTAssertNil(harness.session.reconnectDeadline)
        harness.advance(120_000)
        XCTAssertEqual(harness.opens.count, 1)
    }

    func testMaxReconnectAttemptsStopsRetrying() {
        var configuration = SessionHarness.configuration(autoReconnect: true, random: 0)
        configuration.maxReconnectAttempts = 2
        var harness = SessionHarness(configuration: configuration)
        harness.session.connect(now: harness.now)
        harness.drain()
        for _ in 0..<3 {
            harness.serverClose(code: 1006)
            harness.advance(60_000)
        }
        XCTAssertEqual(harness.opens.count, 3)
        XCTAssertEqual(harness.session.state, .closed)
        XCTAssertNil(harness.session.reconnectDeadline)
    }

    func testNetworkReturningSkipsTheBackOffDelay() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true, random: 0))
        harness.open()
        harness.serverClose(code: 1006)
        XCTAssertEqual(harness.opens.count, 1)
        harness.session.networkBecameAvailable(now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.opens.count, 2)
        XCTAssertNil(harness.session.reconnectDeadline)
        var manual = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        manual.open()
        manual.session.disconnect(now: manual.now)
        manual.session.networkBecameAvailable(now: manual.now)
        manual.drain()
        XCTAssertEqual(manual.opens.count, 1, "a manual disconnect stays disconnected")
    }
}
