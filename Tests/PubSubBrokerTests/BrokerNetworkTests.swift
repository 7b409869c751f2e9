import Foundation
import XCTest
@testable import PubSubBroker

/// The broker over real loopback sockets, with a minimal raw WebSocket client.
final class BrokerNetworkTests: XCTestCase {
    private let handshake = ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##

    func testStartOnPortZeroReportsAFreePortAndURL() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        XCTAssertGreaterThan(broker.port, 0)
        XCTAssertEqual(broker.url.absoluteString, "ws://127.0.0.1:\(broker.port)/socketcluster/")
        await broker.stop()
    }

    func testHandshakeAndInvokeOverTheNetwork() async throws {
        let broker = try await PubSubBroker.start(port: 0, options: BrokerOptions(authKey: "k"))
        broker.procedure("echo") { request in request.data }
        let client = try RawWebSocketClient(port: broker.port)
        try client.send(handshake)
        let response = try JSONValue(parsing: client.receiveText())
        XCTAssertEqual(response["rid"], 1)
        XCTAssertEqual(response["data"]?["pingTimeout"], 20_000)
        XCTAssertEqual(response["data"]?["isAuthenticated"], false)
        XCTAssertEqual(response["data"]?["id"]?.stringValue?.count, 20)
        try client.send(##"{"event":"echo","data":{"a":[1,2]},"cid":2}"##)
        XCTAssertEqual(try client.receiveText(), ##"{"rid":2,"data":{"a":[1,2]}}"##)
        XCTAssertEqual(broker.sockets.count, 1)
        client.closeHandshake()
        await broker.stop()
    }

    func testBrokerCloseCodesReachTheClient() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let client = try RawWebSocketClient(port: broker.port)
        try client.send(##"{"event":"echo","cid":1}"##)
        let frame = try client.receiveFrame()
        XCTAssertEqual(frame.opcode, 0x8)
        XCTAssertEqual(frame.closeCode, 4009)
        try? client.sendClose(code: 4009)
        await broker.stop()
    }

    func testAnotherPathIsRefusedWithHTTP400() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        for path in ["/socketcluster", "/", "/socketcluster/x"] {
            XCTAssertThrowsError(try RawWebSocketClient(port: broker.port, path: path)) { error in
                guard case RawWebSocketClient.Failure.rejected(let statusLine) = error else {
                    return XCTFail("\(path): \(error)")
                }
                XCTAssertTrue(statusLine.hasPrefix("HTTP/1.1 400"), "\(path): \(statusLine)")
            }
        }
        let withQuery = try RawWebSocketClient(port: broker.port, path: "/socketcluster/?v=1")
        withQuery.closeHandshake()
        await broker.stop()
    }

    func testStopClosesEveryConnectionAndReportsDisconnections() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let left = EventLog()
        broker.onDisconnection { left.append("\($0.code)") }
        let clients = try (0..<3).map { _ in try RawWebSocketClient(port: broker.port) }
        for client in clients {
            try client.send(handshake)
            _ = try client.receiveText()
        }
        let stopping = Task { await broker.stop() }
        for client in clients {
            let frame = try client.receiveFrame()
            XCTAssertEqual(frame.closeCode, 1001)
            try client.sendClose(code: 1001)
        }
        await stopping.value
        XCTAssertEqual(broker.sockets.count, 0)
        XCTAssertEqual(left.entries, ["1001", "1001", "1001"])
    }

    func testPublishReachesSubscribersOverTheNetwork() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let client = try RawWebSocketClient(port: broker.port)
        try client.send(handshake)
        _ = try client.receiveText()
        try client.send(##"{"event":"#subscribe","data":{"channel":"news"},"cid":2}"##)
        XCTAssertEqual(try client.receiveText(), ##"{"rid":2}"##)
        broker.publish(channel: "news", data: ["headline": "hi"])
        XCTAssertEqual(try client.receiveText(), ##"{"event":"#publish","data":{"channel":"news","data":{"headline":"hi"}}}"##)
        client.closeHandshake()
        await broker.stop()
    }
}
