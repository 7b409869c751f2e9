import Foundation
import TestSupport
import XCTest
@testable import PubSubBroker

/// The inbound-cost limits over real loopback sockets: a huge JSON array (`maxMessageValues`),
/// long channel names (`maxChannelNameLength`), a huge auth token (`maxAuthTokenLength`) and
/// unusual cids, each with what the client sees, the broker's memory bounded by the limit, and
/// another client still served.
final class BrokerInboundLimitsNetworkTests: XCTestCase {
    private func connect(_ broker: PubSubBroker) throws -> RawWebSocketClient {
        try RawWebSocketClient.handshaken(to: broker)
    }

    /// A `#publish` invoke on `client` is answered (the broker is still serving others).
    private func assertServed(_ client: RawWebSocketClient, cid: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try client.send(##"{"event":"#publish","data":{"channel":"calm","data":1},"cid":\##(cid)}"##)
        XCTAssertEqual(try client.receiveText(), "{\"rid\":\(cid)}", file: file, line: line)
    }

    func testAHugeArrayIsPublishedAsSentButClosesAProcedureCallWith1009() async throws {
        let values = 100_000
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.maxMessageValues = values })
        broker.procedure("ask") { _ in nil }
        let bystander = try connect(broker)
        let subscriber = try RawWebSocketClient.handshaken(to: broker, subscribingTo: "big")
        let before = try XCTUnwrap(ResidentMemory.current())
        let array = "[" + Array(repeating: "0", count: 2 << 20).joined(separator: ",") + "]"  // 4 MiB, 2 Mi values
        let publisher = try connect(broker)
        for cid in 3..<6 {
            // A publication is routed without a tree: any number of values passes.
            try publisher.send(zeroMask: true, ##"{"event":"#publish","data":{"channel":"big","data":\##(array)},"cid":\##(cid)}"##)
            XCTAssertEqual(try publisher.receiveText(), "{\"rid\":\(cid)}")
            XCTAssertEqual(try subscriber.receiveText(), ##"{"event":"#publish","data":{"channel":"big","data":\##(array)}}"##)
            try assertServed(bystander, cid: cid)
        }
        // A procedure needs the value: the tree would exceed the budget, so the caller is closed.
        let caller = try connect(broker)
        try caller.send(zeroMask: true, ##"{"event":"ask","data":\##(array),"cid":2}"##)
        let close = try caller.receiveFrame()
        XCTAssertEqual(close.closeCode, 1009)
        XCTAssertEqual(close.closeReason, "Message has more than \(values) JSON values")
        try? caller.sendClose(code: 1009)
        try assertServed(bystander, cid: 9)
        // A few copies of each 4 MiB message on both sides of the socket (this process is the
        // broker and its clients: the array, frames sent and received, the broker's text and
        // publication) plus at most `values` values (24 bytes each, built twice while the array
        // is collected), with room for allocator slack; building the whole array would add about
        // 100 MiB.
        let growth = (ResidentMemory.current() ?? 0) - before
        XCTAssertLessThan(growth, 8 * (4 << 20) + 2 * 24 * values + (16 << 20), "RSS grew \(ResidentMemory.mebibytes(growth))")
        for client in [bystander, subscriber, publisher] { client.closeHandshake() }
        await broker.stop()
    }

    func testLongChannelNamesAreRefusedAndNotKept() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let limit = try XCTUnwrap(broker.options.maxChannelNameLength)
        let bystander = try connect(broker)
        let attacker = try connect(broker)
        let before = try XCTUnwrap(ResidentMemory.current())
        let tail = String(repeating: "n", count: 1 << 20)
        for n in 0..<32 {
            try attacker.send(zeroMask: true, ##"{"event":"#subscribe","data":{"channel":"\##(n)\##(tail)"},"cid":\##(n + 3)}"##)
            let answer = try JSONValue(parsing: attacker.receiveText())
            XCTAssertEqual(answer["rid"], .int(Int64(n + 3)))
            XCTAssertEqual(answer["error"]?["message"]?.stringValue, "Subscribe channel name exceeded the maximum length of \(limit) bytes")
        }
        try assertServed(bystander, cid: 3)
        XCTAssertEqual(broker.sockets.count, 2)
        // 32 MiB of names were sent; none is held (each message is released once answered).
        let growth = (ResidentMemory.current() ?? 0) - before
        XCTAssertLessThan(growth, 24 << 20, "RSS grew \(ResidentMemory.mebibytes(growth))")
        attacker.closeHandshake()
        bystander.closeHandshake()
        await broker.stop()
    }

    func testAHugeHandshakeTokenIsRefusedAsABadToken() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let limit = try XCTUnwrap(broker.options.maxAuthTokenLength)
        let client = try RawWebSocketClient(port: broker.port)
        let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "A", count: 1 << 20) + ".c2ln"
        try client.send(zeroMask: true, ##"{"event":"#handshake","data":{"authToken":"\##(token)"},"cid":1}"##)
        let answer = try JSONValue(parsing: client.receiveText())
        XCTAssertEqual(answer["data"]?["isAuthenticated"], false)
        XCTAssertEqual(answer["data"]?["authError"]?["message"]?.stringValue, "jwt longer than \(limit) bytes")
        XCTAssertEqual(try client.receiveText(), ##"{"event":"#removeAuthToken"}"##)
        try assertServed(client, cid: 2)
        client.closeHandshake()
        await broker.stop()
    }

    func testUnusualCidsAreAnsweredWithTheNumberAsSent() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("echo") { request in request.data }
        let client = try connect(broker)
        for cid in ["1.5", "1e30", "9223372036854775808", "18446744073709551616", "-9223372036854775809"] {
            try client.send(##"{"event":"#publish","data":{"channel":"c"},"cid":\##(cid)}"##)
            XCTAssertEqual(try client.receiveText(), #"{"rid":\#(cid)}"#)
            try client.send(#"{"event":"echo","data":7,"cid":\#(cid)}"#)
            XCTAssertEqual(try client.receiveText(), #"{"rid":\#(cid),"data":7}"#)
        }
        client.closeHandshake()
        await broker.stop()
    }
}
