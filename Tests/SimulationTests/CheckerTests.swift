@_spi(Cores) import MonotonicTime
import XCTest
@testable import Simulation

/// Each invariant checker reports what it exists to catch, fed a broken history by hand.
final class CheckerTests: XCTestCase {
    func at(_ milliseconds: UInt64) -> MonotonicInstant { MonotonicInstant(nanoseconds: milliseconds * 1_000_000) }

    // MARK: Calls complete exactly once

    func testACallCompletedTwiceIsReported() {
        var ledger = CallLedger()
        XCTAssertNil(ledger.made(0, 1, what: "invoke", at: at(1)))
        XCTAssertNil(ledger.completed(0, 1, outcome: "ok", at: at(2)))
        let violation = ledger.completed(0, 1, outcome: "timeout", at: at(3))
        XCTAssertEqual(violation?.invariant, .callCompletesOnce)
        XCTAssertTrue(violation?.message.contains("second time") ?? false, violation?.message ?? "")
    }

    func testACallNeverCompletedIsReportedAtQuiescence() {
        var ledger = CallLedger()
        XCTAssertNil(ledger.made(3, 1, what: "invoke echo", at: at(1)))
        XCTAssertNil(ledger.made(3, 2, what: "publish", at: at(1)))
        XCTAssertNil(ledger.completed(3, 2, outcome: "ok", at: at(2)))
        let unfinished = ledger.unfinished(at: at(9))
        XCTAssertEqual(unfinished.count, 1)
        XCTAssertTrue(unfinished.first?.message.contains("client 3 call #1 (invoke echo)") ?? false)
    }

    func testACompletionOfACallNeverMadeIsReported() {
        var ledger = CallLedger()
        XCTAssertNil(ledger.completed(0, 5, outcome: "ok", at: at(1)))
        XCTAssertEqual(ledger.unfinished(at: at(2)).first?.message.contains("never made"), true)
    }

    func testACallCompletedInsideTheInputThatMadeItIsFine() {
        var ledger = CallLedger()
        XCTAssertNil(ledger.completed(0, 1, outcome: "ok", at: at(1)))
        XCTAssertNil(ledger.made(0, 1, what: "subscribe", at: at(1)))
        XCTAssertEqual(ledger.unfinished(at: at(2)), [])
        XCTAssertNotNil(ledger.completed(0, 1, outcome: "ok", at: at(2)), "and once only")
    }

    func testAbandonedBrokerCallsAreForgotten() {
        var ledger = CallLedger()
        XCTAssertNil(ledger.made(CallLedger.broker, 1, what: "invoke ask", at: at(1)))
        ledger.abandon(CallLedger.broker)
        XCTAssertEqual(ledger.unfinished(at: at(2)), [])
        XCTAssertNil(ledger.made(CallLedger.broker, 1, what: "invoke ask", at: at(3)), "a new broker counts from 1 again")
    }

    // MARK: Delivery

    func testAPublicationToAClientNotSubscribedIsReported() {
        var delivery = DeliveryChecker()
        let violation = delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 1, via: 5, subscribed: false, at: at(1))
        XCTAssertEqual(violation?.invariant, .delivery)
    }

    func testADuplicatePublicationIsReported() {
        var delivery = DeliveryChecker()
        XCTAssertNil(delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 1, via: 5, subscribed: true, at: at(1)))
        let violation = delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 1, via: 6, subscribed: true, at: at(2))
        XCTAssertTrue(violation?.message.contains("second time") ?? false)
    }

    func testPublicationsOutOfOrderOnOneConnectionAreReported() {
        var delivery = DeliveryChecker()
        XCTAssertNil(delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 4, via: 5, subscribed: true, at: at(1)))
        XCTAssertNotNil(delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 3, via: 5, subscribed: true, at: at(2)))
        // From another of the publisher's connections, an older one may arrive late.
        XCTAssertNil(delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 2, via: 6, subscribed: true, at: at(3)))
    }

    func testAnAcknowledgedPublicationMissingAtASubscribedClientIsReported() {
        var delivery = scenario()
        let missing = delivery.finish(at: at(10_000))
        XCTAssertEqual(missing.count, 1)
        XCTAssertTrue(missing.first?.message.contains("client 1 never received publication 2/7") ?? false, missing.first?.message ?? "")
    }

    func testAReceivedPublicationSatisfiesTheCheck() {
        var delivery = scenario()
        XCTAssertNil(delivery.delivered(to: 1, channel: "a", publisher: 2, sequence: 7, via: 9, subscribed: true, at: at(1_100)))
        XCTAssertEqual(delivery.finish(at: at(10_000)), [])
        XCTAssertEqual(delivery.requiredDeliveries, 1)
    }

    func testNoDeliveryIsRequiredAfterTheBrokerDroppedTheSubscription() {
        var delivery = scenario()
        delivery.brokerRemoved(1, channel: "a", at: at(1_050))
        XCTAssertEqual(delivery.finish(at: at(10_000)), [])
    }

    func testNoDeliveryIsRequiredWhileTheLinkIsHeld() {
        var delivery = scenario()
        delivery.held(1, from: at(1_000))
        XCTAssertEqual(delivery.finish(at: at(10_000)), [])
    }

    func testAStallMovesTheDeadline() {
        var delivery = scenario(subscribedUntil: 3_000)
        XCTAssertEqual(delivery.finish(at: at(10_000)).count, 1)
        var stalled = scenario(subscribedUntil: 3_000)
        stalled.stalled(1, from: at(1_100), to: at(5_000))
        XCTAssertEqual(stalled.finish(at: at(10_000)), [], "the publication may still be on its way when the subscription ends")
    }

    /// Client 1 subscribed to "a" on link 1 (latency ≤ 100 ms) from 500 ms; client 2 published
    /// 2/7 there at 1 s, acknowledged at 1.2 s.
    private func scenario(subscribedUntil end: UInt64? = nil) -> DeliveryChecker {
        var delivery = DeliveryChecker()
        delivery.connectionOpened(1, maxLatency: .milliseconds(100))
        delivery.subscribeRequested(1, channel: "a", at: at(400))
        delivery.subscribed(1, channel: "a", link: 1, at: at(500))
        delivery.acknowledged(.init(channel: "a", publisher: 2, sequence: 7, calledAt: at(1_000), ackedAt: at(1_200)))
        if let end { delivery.ended(1, channel: "a", at: at(end)) }
        return delivery
    }

    // MARK: Conduct

    func testReservedCloseCodesAreReported() {
        for code: UInt16 in [999, 1004, 1005, 1006, 1015, 2000, 5000] {
            XCTAssertNotNil(ConductChecker.closeCode(code, sentBy: "client 0", at: at(1)), "\(code)")
        }
        for code: UInt16 in [1000, 1001, 1008, 1011, 3000, 4000, 4999] {
            XCTAssertNil(ConductChecker.closeCode(code, sentBy: "client 0", at: at(1)), "\(code)")
        }
    }

    func testADeadlineInThePastIsReported() {
        XCTAssertNotNil(ConductChecker.deadline(at(9), of: "broker", after: "text", now: at(10), timersRan: false, at: at(10)))
        XCTAssertNil(ConductChecker.deadline(at(10), of: "broker", after: "text", now: at(10), timersRan: false, at: at(10)))
        XCTAssertNotNil(
            ConductChecker.deadline(at(10), of: "broker", after: "timers", now: at(10), timersRan: true, at: at(10)),
            "after its timers ran, nothing may be due any more")
        XCTAssertNil(ConductChecker.deadline(nil, of: "broker", after: "timers", now: at(10), timersRan: true, at: at(10)))
    }
}
