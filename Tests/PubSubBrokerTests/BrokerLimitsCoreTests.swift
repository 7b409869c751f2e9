import Foundation
import XCTest
@testable import PubSubBroker
import TestSupport

/// The protocol limits of `BrokerCore`: `socketChannelLimit` and handshake rejection, each at,
/// below and above its limit, with the answer or close code the client sees.
final class BrokerLimitsCoreTests: XCTestCase {
    private let wall = Date(timeIntervalSince1970: 1_795_248_000)
    private let now = MonotonicInstant(nanoseconds: 5_000_000_000)
    private let connection = BrokerConnectionID(rawValue: 1)

    private func drain(_ core: inout BrokerCore) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        while let action = core.nextAction() { actions.append(action) }
        return actions
    }

    private func text(_ core: inout BrokerCore, _ text: String) -> [BrokerAction] {
        core.receivedText(text, from: connection, now: now, wallClock: wall)
        return drain(&core)
    }

    private func sends(_ actions: [BrokerAction]) -> [String] {
        actions.compactMap { if case .send(_, let utf8) = $0 { return String(decoding: utf8, as: UTF8.self) } else { return nil } }
    }

    private func subscribe(_ core: inout BrokerCore, _ channel: String, cid: Int) -> String? {
        sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"\##(channel)"},"cid":\##(cid)}"##)).first
    }

    func testTheDefaultChannelLimitIsSocketclusterServers() {
        XCTAssertEqual(BrokerOptions().socketChannelLimit, 1000)
        XCTAssertEqual(BrokerOptions().maxPayload, 100 * 1024 * 1024)
    }

    func testChannelLimitBelowAtAndAbove() throws {
        var core = BrokerCore(options: configured(BrokerOptions()) { $0.socketChannelLimit = 2 })
        core.connectionOpened(connection, now: now)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##)
        let id = try XCTUnwrap(core.socketInfo(connection)?.id)
        XCTAssertEqual(subscribe(&core, "a", cid: 2), ##"{"rid":2}"##)  // below
        XCTAssertEqual(subscribe(&core, "b", cid: 3), ##"{"rid":3}"##)  // reaches the limit
        let refused = try JSONValue(parsing: XCTUnwrap(subscribe(&core, "c", cid: 4)))  // above
        XCTAssertEqual(refused["rid"], 4)
        XCTAssertEqual(refused["error"]?["name"], "BrokerError")
        XCTAssertEqual(
            refused["error"]?["message"]?.stringValue,
            "Failed to subscribe socket to the c channel - InvalidActionError: Socket \(id) tried to exceed the channel subscription limit of 2")
        XCTAssertEqual(core.subscriptions(of: connection), ["a", "b"])
        XCTAssertEqual(core.subscriberCount(of: "c"), 0)
        // As socketcluster-server: the limit is checked first, even for a channel already held.
        XCTAssertNotNil(try JSONValue(parsing: XCTUnwrap(subscribe(&core, "a", cid: 5)))["error"])
        // Leaving a channel makes room again.
        _ = text(&core, ##"{"event":"#unsubscribe","data":"a","cid":6}"##)
        XCTAssertEqual(subscribe(&core, "c", cid: 7), ##"{"rid":7}"##)
        XCTAssertEqual(core.subscriptions(of: connection), ["b", "c"])
    }

    func testNoChannelLimitWhenNil() {
        var core = BrokerCore(options: configured(BrokerOptions()) { $0.socketChannelLimit = nil })
        core.connectionOpened(connection, now: now)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##)
        for index in 0..<1_200 { XCTAssertEqual(subscribe(&core, "c\(index)", cid: index + 2), "{\"rid\":\(index + 2)}") }
        XCTAssertEqual(core.subscriptions(of: connection).count, 1_200)
    }

    func testAHeldHandshakeIsAnsweredOnlyOnceAllowed() {
        var core = BrokerCore(options: BrokerOptions())
        core.authorizesHandshake = true
        core.connectionOpened(connection, now: now)
        let held = text(&core, ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##)
        XCTAssertEqual(sends(held), [])
        guard case .authorize(_, .handshake(let request))? = held.first else { return XCTFail("\(held)") }
        XCTAssertEqual(request.data?["authToken"], .null)
        core.handshakeDecided(connection, rejection: nil, wallClock: wall)
        let answered = drain(&core)
        XCTAssertEqual(sends(answered).count, 1)
        XCTAssertTrue(answered.contains { if case .socketConnected = $0 { return true } else { return false } })
        XCTAssertEqual(core.connectedSockets, [connection])
    }

    func testARejectedHandshakeIsAnsweredWithTheReasonThenClosedWithItsCode() throws {
        var core = BrokerCore(options: BrokerOptions())
        core.authorizesHandshake = true
        core.connectionOpened(connection, now: now)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##)
        core.handshakeDecided(connection, rejection: BrokerHandshakeRejection(code: 4403, reason: "banned"), wallClock: wall)
        let actions = drain(&core)
        let answer = try JSONValue(parsing: XCTUnwrap(sends(actions).first))
        XCTAssertEqual(answer["rid"], 1)
        XCTAssertEqual(answer["error"]?["message"], "banned")
        XCTAssertTrue(actions.contains { if case .close(_, 4403, "banned") = $0 { return true } else { return false } })
        // Never connected, so never reported as disconnected.
        XCTAssertFalse(actions.contains { if case .socketDisconnected = $0 { return true } else { return false } })
        XCTAssertNil(core.socketInfo(connection))
    }

    func testCloseReasonsAreCutToWhatACloseFrameCarries() {
        XCTAssertEqual(BrokerCore.closeReason("short"), "short")
        let long = String(repeating: "é", count: 100)  // 200 bytes
        let cut = BrokerCore.closeReason(long)
        XCTAssertEqual(cut.utf8.count, 122)
        XCTAssertTrue(long.hasPrefix(cut))
    }
}
