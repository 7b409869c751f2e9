import Foundation
import XCTest
@testable import PubSubBroker
import TestSupport

/// `BrokerCore` on its own: inputs and time in, actions out, nothing else involved.
final class BrokerCoreTests: XCTestCase {
    private let wall = Date(timeIntervalSince1970: 1_795_248_000)
    private let start = MonotonicInstant(nanoseconds: 5_000_000_000)
    private let connection = BrokerConnectionID(rawValue: 1)

    private func at(_ seconds: Int) -> MonotonicInstant { start + .seconds(seconds) }

    private func drain(_ core: inout BrokerCore) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        while let action = core.nextAction() { actions.append(action) }
        return actions
    }

    private func sends(_ actions: [BrokerAction]) -> [String] {
        actions.compactMap { if case .send(_, let utf8) = $0 { return String(decoding: utf8, as: UTF8.self) } else { return nil } }
    }

    private func text(_ core: inout BrokerCore, _ text: String, at seconds: Int) -> [BrokerAction] {
        core.receivedText(text, from: connection, now: at(seconds), wallClock: wall.addingTimeInterval(TimeInterval(seconds)))
        return drain(&core)
    }

    private func elapse(_ core: inout BrokerCore, to seconds: Int) -> [BrokerAction] {
        core.timeElapsed(now: at(seconds))
        return drain(&core)
    }

    func testOpeningAConnectionArmsTheFirstPingDeadline() {
        var core = BrokerCore(options: configured(BrokerOptions()) { $0.pingInterval = .seconds(8) })
        core.connectionOpened(connection, now: start)
        XCTAssertEqual(core.nextDeadline, at(8))
        XCTAssertEqual(sends(drain(&core)), [])
    }

    func testPingsFollowTheClockAndOnlyTheExactPongKeepsTheConnection() {
        var core = BrokerCore(
            options: configured(BrokerOptions()) {
                $0.pingInterval = .seconds(8)
                $0.pingTimeout = .seconds(20)
                $0.protocolVersion = .v1
            })
        core.connectionOpened(connection, now: start)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##, at: 0)
        XCTAssertEqual(sends(elapse(&core, to: 8)), ["#1"])
        _ = text(&core, "", at: 9)  // not the v1 pong
        XCTAssertEqual(sends(elapse(&core, to: 16)), ["#1"])
        _ = text(&core, "#2", at: 17)
        let atTwenty = elapse(&core, to: 20)
        XCTAssertFalse(atTwenty.contains { if case .close = $0 { return true } else { return false } })
        let atThirtySeven = elapse(&core, to: 37)
        XCTAssertTrue(atThirtySeven.contains { if case .close(_, 4001, "") = $0 { return true } else { return false } })
        XCTAssertNil(core.socketInfo(connection))
    }

    func testAuthorizationHoldsLaterPacketsUntilDecided() {
        var core = BrokerCore(options: BrokerOptions())
        core.authorizesSubscribe = true
        core.connectionOpened(connection, now: start)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##, at: 0)
        let held = text(
            &core,
            ##"[{"event":"#subscribe","data":{"channel":"c"},"cid":2},{"event":"#unsubscribe","data":"c","cid":3}]"##,
            at: 0)
        XCTAssertEqual(sends(held), [])
        XCTAssertTrue(held.contains { if case .authorize(_, .subscribe(let request)) = $0 { return request.channel == "c" } else { return false } })
        core.authorizationDecided(connection, rejection: nil, wallClock: wall)
        XCTAssertEqual(sends(drain(&core)), [##"{"rid":2}"##, ##"{"rid":3}"##])
    }

    func testOneDeadlineHeapServesEveryConnectionAndForgetsClosedOnes() {
        var core = BrokerCore(
            options: configured(BrokerOptions()) {
                $0.pingInterval = .seconds(8)
                $0.handshakeTimeout = .seconds(10)
            })
        let other = BrokerConnectionID(rawValue: 2)
        core.connectionOpened(connection, now: start)
        core.connectionOpened(other, now: at(3))
        _ = drain(&core)
        XCTAssertEqual(core.nextDeadline, at(8))
        core.connectionClosed(connection, code: 1000, reason: "")
        core.timeElapsed(now: at(8))
        XCTAssertEqual(sends(drain(&core)), [], "the closed connection's ping deadline is stale")
        XCTAssertEqual(core.nextDeadline, at(11), "the other connection's first ping")
        core.timeElapsed(now: at(11))
        XCTAssertEqual(drain(&core).count, 1, "one ping")
        core.timeElapsed(now: at(13))
        let timedOut = drain(&core)
        XCTAssertTrue(
            timedOut.contains { if case .close(other, 4005, "") = $0 { return true } else { return false } },
            "handshake timeout \(timedOut)")
    }
}
