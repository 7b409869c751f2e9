import Foundation
import XCTest
@testable import PubSubBroker

/// Every numeric `cid` a client sends is answered with `rid` equal to that number as written,
/// as socketcluster-server echoes it: never silence, never another number.
final class BrokerCallIDCoreTests: XCTestCase {
    private let wall = Date(timeIntervalSince1970: 1_795_248_000)
    private let now = MonotonicInstant(nanoseconds: 5_000_000_000)
    private let connection = BrokerConnectionID(rawValue: 1)
    /// 1.5, 1e30, 2^63, 2^64, -2^63-1, and an integral number in exponent form.
    private static let callIDs = ["1.5", "1e30", "9223372036854775808", "18446744073709551616", "-9223372036854775809", "1e3"]

    private func drain(_ core: inout BrokerCore) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        while let action = core.nextAction() { actions.append(action) }
        return actions
    }

    private func sends(_ core: inout BrokerCore, _ text: String) -> [String] {
        core.receivedText(text, from: connection, now: now, wallClock: wall)
        return drain(&core).compactMap { if case .send(_, let utf8) = $0 { return String(decoding: utf8, as: UTF8.self) } else { return nil } }
    }

    private func openCore() -> BrokerCore {
        var core = BrokerCore(options: BrokerOptions())
        core.connectionOpened(connection, now: now)
        _ = sends(&core, ##"{"event":"#handshake","cid":1}"##)
        return core
    }

    func testTheHandshakeIsAnsweredWithTheCidAsSent() {
        for cid in Self.callIDs {
            var core = BrokerCore(options: BrokerOptions())
            core.connectionOpened(connection, now: now)
            let answer = sends(&core, ##"{"event":"#handshake","cid":\##(cid)}"##)
            XCTAssertEqual(answer.count, 1, cid)
            XCTAssertTrue(answer.first?.hasPrefix(#"{"rid":\#(cid),"data":{"id":""#) == true, "\(cid): \(answer)")
        }
    }

    func testSubscribePublishUnsubscribeAndErrorsAreAnsweredWithTheCidAsSent() {
        for cid in Self.callIDs {
            var core = openCore()
            XCTAssertEqual(sends(&core, ##"{"event":"#subscribe","data":{"channel":"c"},"cid":\##(cid)}"##), [#"{"rid":\#(cid)}"#])
            XCTAssertEqual(sends(&core, ##"{"event":"#unsubscribe","data":"c","cid":\##(cid)}"##), [#"{"rid":\#(cid)}"#])
            XCTAssertEqual(
                sends(&core, ##"{"event":"#publish","data":{"channel":"c"},"cid":\##(cid)}"##), [#"{"rid":\#(cid)}"#])
            XCTAssertEqual(
                sends(&core, ##"{"event":"#publish","data":null,"cid":\##(cid)}"##),
                [#"{"rid":\#(cid),"error":{"message":"Publish channel name was malformatted","name":"InvalidActionError"}}"#])
            XCTAssertTrue(
                sends(&core, ##"{"event":"#authenticate","data":"x","cid":\##(cid)}"##).first?.hasPrefix(#"{"rid":\#(cid),"#) == true, cid)
        }
    }

    func testAProcedureCallCarriesTheCidAndItsAnswerUsesIt() throws {
        for cid in Self.callIDs {
            var core = openCore()
            core.receivedText(#"{"event":"ask","data":1,"cid":\#(cid)}"#, from: connection, now: now, wallClock: wall)
            let call = try XCTUnwrap(
                drain(&core).compactMap { if case .callProcedure(let call) = $0 { return call } else { return nil } }.first, cid)
            XCTAssertEqual(call.procedure, "ask")
            XCTAssertEqual(call.data, 1)
            core.respond(to: connection, cid: call.cid, result: .success(["ok": true]))
            let answer = drain(&core).compactMap { if case .send(_, let utf8) = $0 { return String(decoding: utf8, as: UTF8.self) } else { return nil } }
            XCTAssertEqual(answer, [#"{"rid":\#(cid),"data":{"ok":true}}"#], cid)
        }
    }

    func testBatchedInvokesAreEachAnsweredWithTheirOwnCid() {
        var core = openCore()
        XCTAssertEqual(
            sends(&core, ##"[{"event":"#subscribe","data":{"channel":"a"},"cid":2.5},{"event":"#subscribe","data":{"channel":"b"},"cid":3}]"##),
            [#"{"rid":2.5}"#, #"{"rid":3}"#])
    }
}
