import Foundation
import PubSubBroker
import XCTest
@testable import PubSubClient
import TestSupport

/// PubSubClient against PubSubBroker over loopback, both with `MinBinPacketCodec`; and what a
/// codec mismatch looks like from each side.
final class MinBinEndToEndTests: XCTestCase {
    private func startBroker(codec: any PacketCodec) async throws -> PubSubBroker {
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions(authKey: "k")) { $0.codec = codec })
        broker.procedure("echo") { request in request.data }
        broker.procedure("fail") { _ in throw RemoteError(name: "FailError", message: "boom", fields: ["code": 42]) }
        broker.procedure("login") { request in
            _ = try request.socket.setAuthToken(["username": request.data?["username"] ?? "anon"])
            return "ok"
        }
        broker.procedure("serverEmit") { request in
            request.socket.transmit("note", request.data)
            return nil
        }
        return broker
    }

    func testMinBinClientAndBrokerInvokeSubscribePublishBatchAndLogIn() async throws {
        let broker = try await startBroker(codec: MinBinPacketCodec())
        let client = try PubSubClient(url: broker.url.absoluteString, codec: MinBinPacketCodec())
        let handshake = try await client.connect()
        XCTAssertEqual(handshake.id.count, 20)

        let bytes = Data([0, 1, 2, 127, 128, 253, 254, 255])
        let sent: JSONValue = .object([
            "bytes": .binary(bytes), "n": .int(1 << 40), "x": .double(1.5), "list": .array([.null, .bool(true)]),
        ])
        let echoed = try await client.invoke("echo", sent)
        XCTAssertEqual(echoed?["bytes"]?.binaryData, bytes, "binary data stays binary")
        XCTAssertEqual(echoed, sent)
        let noData = try await client.invoke("echo")
        XCTAssertNil(noData)

        do {
            _ = try await client.invoke("fail", 1)
            XCTFail("fail throws")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote, RemoteError(name: "FailError", message: "boom", fields: ["code": 42]))
        }

        try await client.subscribe("room")
        let publications = client.channel("room")
        var iterator = publications.makeAsyncIterator()
        try await client.publishAck("room", .binary(bytes))
        let received = await iterator.next()
        XCTAssertEqual(received??.binaryData, bytes)

        let notes = client.receiver("note")
        var notesIterator = notes.makeAsyncIterator()
        client.startBatch()
        try client.publish("room", "batched")
        async let emitted = client.invoke("serverEmit", ["k": "v"])
        client.flushBatch()
        let note = await notesIterator.next()
        XCTAssertEqual(note, ["k": "v"])
        _ = try await emitted
        let batched = await iterator.next()
        XCTAssertEqual(batched, "batched")

        let login = try await client.invoke("login", ["username": "bob"])
        XCTAssertEqual(login, "ok")
        XCTAssertEqual(client.auth.token?["username"], "bob")

        client.disconnect()
        await broker.stop()
    }

    func testJSONClientIsClosedWith4009ByAMinBinBroker() async throws {
        let broker = try await startBroker(codec: MinBinPacketCodec())
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.autoReconnect = false
            })
        await assertConnectFails(client, code: 4009)
        await broker.stop()
    }

    func testMinBinClientIsClosedWith4009ByAJSONBroker() async throws {
        let broker = try await startBroker(codec: JSONPacketCodec())
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.codec = MinBinPacketCodec()
                $0.autoReconnect = false
            })
        await assertConnectFails(client, code: 4009)
        await broker.stop()
    }

    private func assertConnectFails(_ client: PubSubClient, code: UInt16, line: UInt = #line) async {
        do {
            try await client.connect()
            XCTFail("connected across codecs", line: line)
        } catch let error as PubSubError {
            guard error.code == .connectionFailed, let closeCode = error.closeCode?.rawValue else {
                return XCTFail("\(error)", line: line)
            }
            XCTAssertEqual(closeCode, code, "Server received a message before the client handshake", line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
    }
}
