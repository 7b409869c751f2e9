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

    func testAHugeArrayClosesThePublisherWith1009AndCostsAtMostTheValueBudget() async throws {
        let values = 100_000
        let broker = try await PubSubBroker.start(port: 0, options: BrokerOptions(maxMessageValues: values))
        let bystander = try connect(broker)
        let before = try XCTUnwrap(ResidentMemory.current())
        let attackerArray = "[" + Array(repeating: "0", count: 2 << 20).joined(separator: ",") + "]"  // 4 MiB, 2 Mi values
        for _ in 0..<3 {
            let attacker = try connect(broker)
            try attacker.send(zeroMask: true, ##"{"event":"#publish","data":{"channel":"big","data":\##(attackerArray)},"cid":2}"##)
            let close = try attacker.receiveFrame()
            XCTAssertEqual(close.closeCode, 1009)
            XCTAssertEqual(close.closeReason, "Message has more than \(values) JSON values")
            try? attacker.sendClose(code: 1009)
            try assertServed(bystander, cid: 3)
        }
        // The message itself (4 MiB, held as frame and text) plus at most `values` values
        // (24 bytes each, built twice while the array is collected), with room for allocator slack;
        // building the whole array would take about 100 MiB.
        let growth = (ResidentMemory.current() ?? 0) - before
        XCTAssertLessThan(growth, 3 * (4 << 20) + 2 * 24 * values + (16 << 20), "RSS grew \(ResidentMemory.mebibytes(growth))")
        bystander.closeHandshake()
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
