import XCTest
@testable import PubSubClient

/// A server invoke is answered with `rid` equal to the number its `cid` held, however it was
/// written: a cid that is no `Int64` is neither dropped nor answered with another number.
final class ServerCallIDTests: XCTestCase {
    private static let unusualCallIDs = [
        "1.5", "1e30", "9223372036854775808", "18446744073709551616", "-9223372036854775809", "1e3",
    ]

    func testEveryNumericCidIsAnsweredWithTheNumberAsReceived() throws {
        for cid in Self.unusualCallIDs {
            var harness = SessionHarness()
            harness.open()
            harness.sent = []
            harness.receive(#"{"event":"ask","cid":\#(cid),"data":1}"#)
            guard case .request(let request)? = harness.events.last, request.event == "ask", request.data == 1 else { return XCTFail("\(cid): no request") }
            let id = request.id
            XCTAssertTrue(harness.session.isAwaitingResponse(id), cid)
            try harness.session.respond(to: id, with: .success(2), now: harness.now)
            XCTAssertThrowsError(try harness.session.respond(to: id, with: .success(nil), now: harness.now))
            harness.drain()
            XCTAssertEqual(harness.sent, [#"{"rid":\#(cid),"data":2}"#], cid)
        }
    }

    func testBuiltInInvokesWithAnUnusualCidAreAnsweredWithIt() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive(##"{"event":"#removeAuthToken","cid":2.5}"##)
        harness.drain()
        XCTAssertEqual(harness.sent, [#"{"rid":2.5}"#])
    }

    func testAnIntegerCidAndAnUnusualOneAreDistinctRequests() throws {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        harness.receive(#"{"event":"ask","cid":0}"#)
        harness.receive(#"{"event":"ask","cid":0.5}"#)
        let ids = harness.events.compactMap { event -> ServerRequestID? in
            if case .request(let request) = event { return request.id } else { return nil }
        }
        XCTAssertEqual(ids.count, 2)
        XCTAssertNotEqual(ids[0], ids[1])
        try harness.session.respond(to: ids[1], with: .success(nil), now: harness.now)
        XCTAssertTrue(harness.session.isAwaitingResponse(ids[0]))
        harness.drain()
        XCTAssertEqual(harness.sent, [#"{"rid":0.5}"#])
    }
}
