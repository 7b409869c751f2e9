import Foundation
import PubSubClient
import TestSupport
import XCTest
@testable import PubSubBroker

/// What the broker logs through `BrokerOptions.logSink`, over real loopback sockets: connections
/// and disconnections with the socket id, sockets it closes and why, and the limits hit.
final class BrokerLogTests: XCTestCase {
    private let handshake = RawWebSocketClient.anonymousHandshake

    private func connect(_ broker: PubSubBroker, subscribingTo channel: String? = nil) throws -> RawWebSocketClient {
        try RawWebSocketClient.handshaken(to: broker, subscribingTo: channel)
    }

    func testAClientsConnectionAndDisconnectionAreLoggedWithItsSocketID() async throws {
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.logSink = capture.sink() })
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.autoReconnect = false
            })
        let info = try await client.connect()
        let connected = await capture.first(.broker, "socket connected")
        XCTAssertEqual(connected?.level, .info, capture.transcript)
        XCTAssertEqual(connected?.metadata["socket"], info.id)
        // The opening record links the broker's connection number to WireKit's.
        let opened = await capture.first(.broker, "connection opened")
        XCTAssertEqual(opened?.metadata["connection"], connected?.metadata["connection"], capture.transcript)
        let webSocket = try XCTUnwrap(opened?.metadata["websocket"])
        let accepted = await capture.first(.transport, "accepted")
        XCTAssertEqual(accepted?.metadata["connection"], webSocket, capture.transcript)

        await client.close(code: 1000, reason: "bye")
        let disconnected = await capture.first(.broker, "socket disconnected")
        XCTAssertEqual(disconnected?.level, .info, capture.transcript)
        XCTAssertEqual(disconnected?.metadata["socket"], info.id)
        XCTAssertEqual(disconnected?.metadata["code"], "1000")
        XCTAssertEqual(disconnected?.metadata["reason"], "bye")
        await broker.stop()
    }

    func testASlowConsumerIsLoggedWithItsSocketTheCodeAndTheLimit() async throws {
        let limit = 64 << 10
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(
            port: 0,
            options: configured(BrokerOptions()) {
                $0.maxOutboundBufferedBytes = limit
                $0.logSink = capture.sink()
            })
        var slow: RawWebSocketClient? = try connect(broker, subscribingTo: "x")  // never reads again
        let slowID = try XCTUnwrap(broker.sockets.first?.id)
        // 100 KiB publications until the kernel's buffers are full and 64 KiB wait in the broker.
        let padding = JSONValue.string(String(repeating: "p", count: 100 << 10))
        var record: LogRecord?
        for _ in 0..<2_000 where record == nil {
            broker.publish(channel: "x", data: ["pad": padding])
            record = await capture.first(.broker, "slow consumer closed", timeout: .milliseconds(1))
        }
        let slowConsumer = await capture.first(.broker, "slow consumer closed")
        XCTAssertEqual(slowConsumer?.level, .notice, capture.transcript)
        XCTAssertEqual(slowConsumer?.metadata["socket"], slowID)
        XCTAssertEqual(slowConsumer?.metadata["code"], String(BrokerOptions.slowConsumerCloseCode.rawValue))
        XCTAssertEqual(slowConsumer?.metadata["limit"], String(limit))
        XCTAssertGreaterThan(slowConsumer?.metadata["buffered"].flatMap(Int.init) ?? 0, 0)
        let disconnected = await capture.first(.broker, "socket disconnected")
        XCTAssertEqual(disconnected?.metadata["socket"], slowID, capture.transcript)
        XCTAssertEqual(disconnected?.metadata["code"], String(BrokerOptions.slowConsumerCloseCode.rawValue))
        XCTAssertNotNil(slow)
        slow = nil  // closes its socket: the broker need not wait out its close timeout
        await broker.stop()
    }

    func testAConnectionBeyondMaxConnectionsIsLogged() async throws {
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(
            port: 0,
            options: configured(BrokerOptions()) {
                $0.maxConnections = 1
                $0.logSink = capture.sink()
            })
        let first = try connect(broker)
        let second = try RawWebSocketClient(port: broker.port)
        XCTAssertEqual(try second.receiveFrame().closeCode, BrokerOptions.tooManyConnectionsCloseCode.rawValue)
        let refused = await capture.first(.broker, "max connections reached")
        XCTAssertEqual(refused?.level, .notice, capture.transcript)
        XCTAssertEqual(refused?.metadata["code"], String(BrokerOptions.tooManyConnectionsCloseCode.rawValue))
        XCTAssertEqual(refused?.metadata["limit"], "1")
        try? second.sendClose(code: 1013)
        first.closeHandshake()
        await broker.stop()
    }

    func testAMessageAboveMaxPayloadIsLoggedByWireKitWith1009() async throws {
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(
            port: 0,
            options: configured(BrokerOptions()) {
                $0.maxPayload = 1_000
                $0.logSink = capture.sink()
            })
        let client = try connect(broker)
        let socketID = try XCTUnwrap(broker.sockets.first?.id)
        try client.send(##"{"event":"pad","data":"\##(String(repeating: "a", count: 2_000))"}"##)
        XCTAssertEqual(try client.receiveFrame().closeCode, 1009)
        let tooBig = await capture.first(.webSocket, "message too big")
        XCTAssertEqual(tooBig?.metadata["code"], "1009", capture.transcript)
        XCTAssertEqual(tooBig?.metadata["limit"], "1000")
        XCTAssertEqual(tooBig?.metadata["role"], "server")
        let disconnected = await capture.first(.broker, "socket disconnected")
        XCTAssertEqual(disconnected?.metadata["socket"], socketID, capture.transcript)
        XCTAssertEqual(disconnected?.metadata["code"], "1009")
        await broker.stop()
    }

    func testAHandshakeTheBrokerRejectsIsLoggedAsTheCloseItSends() async throws {
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.logSink = capture.sink() })
        broker.authorizeHandshake { _ in throw BrokerHandshakeRejection(code: 4403, reason: "no entry") }
        let refused = try RawWebSocketClient(port: broker.port)
        try refused.send(handshake)
        _ = try refused.receiveText()
        XCTAssertEqual(try refused.receiveFrame().closeCode, 4403)
        let closing = await capture.first(.broker, "closing connection")
        XCTAssertEqual(closing?.level, .notice, capture.transcript)
        XCTAssertEqual(closing?.metadata["code"], "4403")
        XCTAssertEqual(closing?.metadata["reason"], "no entry")
        XCTAssertEqual(capture.records(.broker, "socket connected"), [], "a rejected socket never connected")
        try? refused.sendClose(code: 4403)
        await broker.stop()
    }

    func testASubscriptionRefusedAtTheChannelLimitIsLogged() async throws {
        let capture = LogCapture()
        var options = BrokerOptions()
        options.logSink = capture.sink()
        options.socketChannelLimit = 1
        let broker = try await PubSubBroker.start(port: 0, options: options)
        let client = try connect(broker, subscribingTo: "a")
        try client.send(##"{"event":"#subscribe","data":{"channel":"b"},"cid":3}"##)
        XCTAssertNotNil(try JSONValue(parsing: client.receiveText())["error"])
        let limit = await capture.first(.broker, "channel limit reached")
        XCTAssertEqual(limit?.metadata["channel"], "b", capture.transcript)
        XCTAssertEqual(limit?.metadata["limit"], "1")
        XCTAssertEqual(limit?.metadata["socket"], broker.sockets.first?.id)
        client.closeHandshake()
        await broker.stop()
    }

    func testNoSinkByDefault() {
        for level in LogLevel.allCases { XCTAssertFalse(BrokerOptions().logSink.isEnabled(level)) }
    }
}
