import Foundation
import WireKit
import XCTest
@testable import PubSubClient
import TestSupport

/// The client over real sockets against a hand-written SocketCluster responder on WireKit's
/// server: checks what only the I/O path can break (empty ping frames, raw 4xxx close codes,
/// headers on the upgrade request).
final class WireKitTransportTests: XCTestCase {
    final class Log: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var _frames: [String] = []
        var frames: [String] { lock.withLock { _frames } }
        func append(_ text: String) { lock.withLock { _frames.append(text) } }
    }

    func testHandshakePingEchoAndServerCloseCodeOverWireKit() async throws {
        let log = Log()
        let server = try WebSocketServer.start(port: 0) { socket in
            socket.onText = { text in
                log.append(text)
                guard let packet = try? JSONValue(parsing: text) else { return }
                if packet["event"] == "#handshake", let cid = packet["cid"]?.intValue {
                    try? socket.write(text: #"{"rid":\#(cid),"data":{"id":"wk","pingTimeout":20000,"isAuthenticated":false}}"#)
                    try? socket.write(text: "")
                } else if packet["event"] == "echo", let cid = packet["cid"]?.intValue {
                    try? socket.write(text: Packet.response(rid: cid, result: .success(packet["data"])).serialized())
                } else if packet["event"] == "bye" {
                    socket.disconnect(code: WebSocketCloseCode(4321), reason: "asked")
                }
            }
        }
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: server.port))
        configuration.headers = ["X-Test": "1"]
        configuration.autoReconnect = false
        let client = PubSubClient(configuration: configuration)
        let events = client.events()
        let info = try await client.connect()
        XCTAssertEqual(info.id, "wk")
        let answer = try await client.invoke("echo", ["n": 1, "ok": true])
        XCTAssertEqual(answer, ["n": 1, "ok": true])
        XCTAssertTrue(log.frames.contains(""), "the empty ping was answered with an empty frame")
        try client.transmit("bye")
        var closing: [SessionEvent] = []
        for await event in events {
            if case .disconnected = event { closing.append(event) }
            if case .closed = event { break }
        }
        XCTAssertEqual(closing, [.disconnected(.init(code: 4321, reason: "asked"))])
        await server.stop()
    }

    func testRefusedConnectionFailsWithTheTypedWebSocketError() async throws {
        let server = try WebSocketServer.start(port: 0)
        let port = server.port
        await server.stop()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: port))) {
                $0.autoReconnect = false
            })
        do {
            try await client.connect()
            XCTFail("expected a failure")
        } catch let error as PubSubError {
            guard error.code == .transport, let failure = error.transport, failure.kind == .connectionRefused,
                failure.webSocketError?.transportError?.code == .connectionRefused, let refused = failure.webSocketError?.transportError?.port
            else { return XCTFail("\(error)") }
            XCTAssertEqual(refused, port)
        }
    }
}
