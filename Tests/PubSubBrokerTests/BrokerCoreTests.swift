import Foundation
import XCTest
@testable import PubSubBroker

/// `BrokerCore` on its own: inputs and time in, actions out, nothing else involved.
final class BrokerCoreTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_795_248_000)
    private let connection = BrokerConnectionID(rawValue: 1)

    private func sends(_ actions: [BrokerAction]) -> [String] {
        actions.compactMap { if case .send(_, let text) = $0 { return text } else { return nil } }
    }

    private func deadline(_ actions: [BrokerAction]) -> Date?? {
        for case .setDeadline(_, let date) in actions { return date }
        return nil
    }

    func testOpeningAConnectionArmsTheFirstPingDeadline() {
        var core = BrokerCore(options: BrokerOptions(pingInterval: .seconds(8)))
        let actions = core.connectionOpened(connection, now: start)
        XCTAssertEqual(deadline(actions), .some(start.addingTimeInterval(8)))
        XCTAssertEqual(sends(actions), [])
    }

    func testPingsFollowTheClockAndOnlyTheExactPongKeepsTheConnection() {
        var core = BrokerCore(options: BrokerOptions(pingInterval: .seconds(8), pingTimeout: .seconds(20), protocolVersion: .v1))
        _ = core.connectionOpened(connection, now: start)
        _ = core.receivedText(##"{"event":"#handshake","cid":1}"##, from: connection, now: start)
        XCTAssertEqual(sends(core.timeAdvanced(for: connection, now: start.addingTimeInterval(8))), ["#1"])
        _ = core.receivedText("", from: connection, now: start.addingTimeInterval(9))  // not the v1 pong
        XCTAssertEqual(sends(core.timeAdvanced(for: connection, now: start.addingTimeInterval(16))), ["#1"])
        _ = core.receivedText("#2", from: connection, now: start.addingTimeInterval(17))
        let atTwenty = core.timeAdvanced(for: connection, now: start.addingTimeInterval(20))
        XCTAssertFalse(atTwenty.contains { if case .close = $0 { return true } else { return false } })
        let atThirtySeven = core.timeAdvanced(for: connection, now: start.addingTimeInterval(37))
        XCTAssertTrue(atThirtySeven.contains { if case .close(_, 4001, "") = $0 { return true } else { return false } })
        XCTAssertNil(core.socketInfo(connection))
    }

    func testAuthorizationHoldsLaterPacketsUntilDecided() {
        var core = BrokerCore(options: BrokerOptions())
        core.authorizesSubscribe = true
        _ = core.connectionOpened(connection, now: start)
        _ = core.receivedText(##"{"event":"#handshake","cid":1}"##, from: connection, now: start)
        let held = core.receivedText(
            ##"[{"event":"#subscribe","data":{"channel":"c"},"cid":2},{"event":"#unsubscribe","data":"c","cid":3}]"##,
            from: connection, now: start)
        XCTAssertEqual(sends(held), [])
        XCTAssertTrue(held.contains { if case .authorize(_, .subscribe(let request)) = $0 { return request.channel == "c" } else { return false } })
        let decided = core.authorizationDecided(connection, rejection: nil, now: start)
        XCTAssertEqual(sends(decided), [##"{"rid":2}"##, ##"{"rid":3}"##])
    }
}
