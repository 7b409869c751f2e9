import Foundation
import XCTest
@testable import PubSubBroker
import TestSupport

/// The inbound-cost limits of `BrokerCore`: `maxMessageValues`, `maxChannelNameLength`,
/// `maxSubscriptionBytes` and `maxAuthTokenLength`, each at and above its limit, with the answer
/// or close code the client sees; and unsubscribing without a channel limit.
final class BrokerMessageLimitsCoreTests: XCTestCase {
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

    private func closes(_ actions: [BrokerAction]) -> [UInt16] {
        actions.compactMap { if case .close(_, let code, _) = $0 { return code } else { return nil } }
    }

    private func openCore(_ options: BrokerOptions) -> BrokerCore {
        var core = BrokerCore(options: options)
        core.connectionOpened(connection, now: now)
        _ = text(&core, ##"{"event":"#handshake","cid":1}"##)
        return core
    }

    func testTheDefaultsAreDocumented() {
        let options = BrokerOptions()
        XCTAssertEqual(options.maxMessageValues, 1_048_576)
        XCTAssertEqual(options.maxChannelNameLength, 4_096)
        XCTAssertEqual(options.maxSubscriptionBytes, 1_048_576)
        XCTAssertEqual(options.maxAuthTokenLength, 65_536)
        XCTAssertEqual(BrokerOptions.tooManyValuesCloseCode, 1009)
    }

    func testAMessageAtTheValueLimitIsProcessedAndOneAboveClosesWith1009() {
        // {"event":"ask","data":{"channel":"c"},"cid":2}: 2 objects, 4 keys, 3 scalars = 9 values.
        let invoke = ##"{"event":"ask","data":{"channel":"c"},"cid":2}"##
        var atLimit = openCore(configured(BrokerOptions()) { $0.maxMessageValues = 9 })
        XCTAssertTrue(text(&atLimit, invoke).contains { if case .callProcedure = $0 { return true } else { return false } })
        var above = openCore(configured(BrokerOptions()) { $0.maxMessageValues = 8 })
        let actions = text(&above, invoke)
        XCTAssertEqual(sends(actions), [])
        XCTAssertEqual(closes(actions), [1009])
        XCTAssertTrue(actions.contains { if case .close(_, _, "Message has more than 8 JSON values") = $0 { return true } else { return false } })
        XCTAssertNil(above.socketInfo(connection))
    }

    func testAPublishInvokeOfAnySizeIsRoutedWithoutATreeAndKeepsItsDataBytes() {
        var core = openCore(configured(BrokerOptions()) { $0.maxMessageValues = 1_000 })
        let subscriber = BrokerConnectionID(rawValue: 2)
        core.connectionOpened(subscriber, now: now)
        core.receivedText(##"{"event":"#handshake","cid":1}"##, from: subscriber, now: now, wallClock: wall)
        core.receivedText(##"{"event":"#subscribe","data":{"channel":"c"},"cid":2}"##, from: subscriber, now: now, wallClock: wall)
        _ = drain(&core)
        let array = "[" + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]"
        let data = #"{"b":1,"a":\#(array),"c":"é"}"#  // key order and escapes as sent
        let actions = text(&core, ##"{"event":"#publish","data":{"channel":"c","data":\##(data)},"cid":3}"##)
        XCTAssertEqual(closes(actions), [])
        let frames = actions.compactMap { action -> (BrokerConnectionID, String)? in
            if case .send(let to, let utf8) = action { return (to, String(decoding: utf8, as: UTF8.self)) } else { return nil }
        }
        XCTAssertEqual(frames.map(\.0), [subscriber, connection])
        XCTAssertEqual(frames.first?.1, ##"{"event":"#publish","data":{"channel":"c","data":\##(data)}}"##)
        XCTAssertEqual(frames.last?.1, #"{"rid":3}"#)
        // Over binary frames too.
        core.receivedBinary(Array(##"{"event":"#publish","data":{"channel":"c"},"cid":4}"##.utf8), from: connection, wallClock: wall)
        XCTAssertEqual(sends(drain(&core)), [##"{"event":"#publish","data":{"channel":"c"}}"##, #"{"rid":4}"#])
    }

    func testAPublishHookStillSeesTheDataAsAValue() {
        var core = openCore(BrokerOptions())
        core.authorizesPublish = true
        let actions = text(&core, ##"{"event":"#publish","data":{"channel":"c","data":{"x":1}},"cid":2}"##)
        guard case .authorize(_, .publish(let request))? = actions.first else { return XCTFail("\(actions)") }
        XCTAssertEqual(request.data, ["x": 1])
    }

    func testAHugeArrayIsRefusedWithoutBuildingIt() {
        var core = openCore(configured(BrokerOptions()) { $0.maxMessageValues = 1_000 })
        let huge = ##"{"event":"#publish","data":{"channel":"c","data":["## + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}}"
        XCTAssertEqual(closes(text(&core, huge)), [1009])
        var binary = openCore(configured(BrokerOptions()) { $0.maxMessageValues = 1_000 })
        binary.receivedBinary(Array(huge.utf8), from: connection, wallClock: wall)
        XCTAssertEqual(closes(drain(&binary)), [1009])
    }

    func testAChannelNameAtTheLengthLimitIsAcceptedAndOneLongerRefused() throws {
        var core = openCore(configured(BrokerOptions()) { $0.maxChannelNameLength = 8 })
        let atLimit = String(repeating: "a", count: 8)
        let longer = String(repeating: "b", count: 9)
        XCTAssertEqual(sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"\##(atLimit)"},"cid":2}"##)), [#"{"rid":2}"#])
        let refused = text(&core, ##"{"event":"#subscribe","data":{"channel":"\##(longer)"},"cid":3}"##)
        let answer = try JSONValue(parsing: XCTUnwrap(sends(refused).first))
        XCTAssertEqual(answer["rid"], 3)
        XCTAssertEqual(answer["error"]?["name"], "InvalidActionError")
        XCTAssertEqual(answer["error"]?["message"], "Subscribe channel name exceeded the maximum length of 8 bytes")
        XCTAssertTrue(refused.contains { if case .channelNameTooLong(_, 9, 8) = $0 { return true } else { return false } })
        XCTAssertEqual(core.subscriptions(of: connection), [atLimit])
        XCTAssertEqual(core.subscriberCount(of: longer), 0)

        let published = try JSONValue(parsing: XCTUnwrap(sends(text(&core, ##"{"event":"#publish","data":{"channel":"\##(longer)"},"cid":4}"##)).first))
        XCTAssertEqual(published["error"]?["message"], "Publish channel name exceeded the maximum length of 8 bytes")
        XCTAssertEqual(sends(text(&core, ##"{"event":"#publish","data":{"channel":"\##(atLimit)","data":1},"cid":5}"##)).count, 2)

        let unsubscribed = try JSONValue(parsing: XCTUnwrap(sends(text(&core, ##"{"event":"#unsubscribe","data":"\##(longer)","cid":6}"##)).first))
        XCTAssertEqual(unsubscribed["error"]?["message"], "Unsubscribe channel name exceeded the maximum length of 8 bytes")
    }

    func testTheSubscriptionByteBudgetCountsNameLengths() throws {
        var core = openCore(configured(BrokerOptions()) { $0.maxSubscriptionBytes = 10 })
        let id = try XCTUnwrap(core.socketInfo(connection)?.id)
        XCTAssertEqual(sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"aaaaa"},"cid":2}"##)), [#"{"rid":2}"#])
        XCTAssertEqual(sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"bbbbb"},"cid":3}"##)), [#"{"rid":3}"#])  // at 10
        // A channel already held costs nothing more.
        XCTAssertEqual(sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"bbbbb"},"cid":4}"##)), [#"{"rid":4}"#])
        let refused = text(&core, ##"{"event":"#subscribe","data":{"channel":"c"},"cid":5}"##)
        let answer = try JSONValue(parsing: XCTUnwrap(sends(refused).first))
        XCTAssertEqual(answer["error"]?["name"], "BrokerError")
        XCTAssertEqual(
            answer["error"]?["message"]?.stringValue,
            "Failed to subscribe socket to a channel - InvalidActionError: Socket \(id) tried to exceed the channel name budget of 10 bytes")
        XCTAssertTrue(refused.contains { if case .subscriptionBytesLimitReached(_, 10) = $0 { return true } else { return false } })
        _ = text(&core, ##"{"event":"#unsubscribe","data":"aaaaa","cid":6}"##)
        XCTAssertEqual(sends(text(&core, ##"{"event":"#subscribe","data":{"channel":"c"},"cid":7}"##)), [#"{"rid":7}"#])
        XCTAssertEqual(core.subscriptions(of: connection), ["bbbbb", "c"])
    }

    func testATokenOverTheLengthLimitIsRefusedAsABadTokenWithoutDecoding() throws {
        let long = String(repeating: "a", count: 33)
        var core = BrokerCore(options: configured(BrokerOptions()) { $0.maxAuthTokenLength = 32 })
        core.connectionOpened(connection, now: now)
        let handshake = sends(text(&core, ##"{"event":"#handshake","data":{"authToken":"\##(long)"},"cid":1}"##))
        XCTAssertEqual(handshake.count, 2)
        let answer = try JSONValue(parsing: handshake[0])
        XCTAssertEqual(answer["data"]?["isAuthenticated"], false)
        XCTAssertEqual(answer["data"]?["authError"]?["name"], "AuthTokenInvalidError")
        XCTAssertEqual(answer["data"]?["authError"]?["message"], "jwt longer than 32 bytes")
        XCTAssertEqual(handshake[1], ##"{"event":"#removeAuthToken"}"##)

        let authenticate = sends(text(&core, ##"{"event":"#authenticate","data":"\##(long)","cid":2}"##))
        let refused = try JSONValue(parsing: XCTUnwrap(authenticate.first))
        XCTAssertEqual(refused["rid"], 2)
        XCTAssertEqual(refused["error"]?["message"], "jwt longer than 32 bytes")
        // At the limit the token is decoded (and, being no JWT, found malformed).
        let atLimit = sends(text(&core, ##"{"event":"#authenticate","data":"\##(long.dropLast())","cid":3}"##))
        XCTAssertNotEqual(try JSONValue(parsing: XCTUnwrap(atLimit.first))["error"]?["message"], "jwt longer than 32 bytes")
    }

    func testUnsubscribingWithoutAChannelLimitKeepsOrderAndCostsLinearWork() {
        var list = SubscriptionList()
        let count = 100_000
        for index in 0..<count { list.insert("c\(index)") }
        for index in stride(from: 0, to: count, by: 2) { list.remove("c\(index)") }
        XCTAssertEqual(list.inOrder, stride(from: 1, to: count, by: 2).map { "c\($0)" })
        for index in stride(from: 1, to: count, by: 2) { list.remove("c\(index)") }
        XCTAssertEqual(list.count, 0)
        XCTAssertEqual(list.byteCount, 0)
        // Compactions copy each surviving slot a bounded number of times: at most one slot per
        // removal, over the whole run.
        XCTAssertLessThanOrEqual(list.slotsMoved, count)
    }

    func testUnsubscribeThroughTheCoreKeepsSubscriptionOrder() {
        var core = openCore(configured(BrokerOptions()) { $0.socketChannelLimit = nil })
        for index in 0..<50 { _ = text(&core, ##"{"event":"#subscribe","data":{"channel":"c\##(index)"},"cid":\##(index + 2)}"##) }
        for index in stride(from: 0, to: 50, by: 3) { _ = text(&core, ##"{"event":"#unsubscribe","data":"c\##(index)","cid":100}"##) }
        XCTAssertEqual(core.subscriptions(of: connection), (0..<50).filter { $0 % 3 != 0 }.map { "c\($0)" })
        _ = text(&core, ##"{"event":"#subscribe","data":{"channel":"c0"},"cid":200}"##)
        XCTAssertEqual(core.subscriptions(of: connection).last, "c0")
    }
}
