import Foundation
import XCTest
@testable import WireKit

/// WireKit against the Python `websockets` 17.4 library, a peer nobody here wrote: our client
/// against its server, and its client against our server.
final class WebSocketsInteropTests: XCTestCase {
    private static let sizes = [0, 125, 126, 65535, 65536, 1 << 20]

    /// Exactly `size` UTF-8 bytes, mostly two-byte characters.
    private func text(ofSize size: Int) -> String {
        String(repeating: "é", count: size / 2) + (size % 2 == 1 ? "a" : "")
    }

    private func startPythonServer() async throws -> (PythonPeer, Int) {
        let peer = try PythonPeer(script: "echo_server.py")
        let line = try await peer.line(startingWith: "PORT ")
        guard let port = Int(line.dropFirst("PORT ".count)) else { throw PythonPeer.PeerError("bad port line \(line)") }
        return (peer, port)
    }

    // MARK: Client role

    func testClientEchoesTextAndBinaryThroughPythonServerThenClosesWithItsCode() async throws {
        let (peer, port) = try await startPythonServer()
        defer { peer.stop() }
        let client = try WebSocket(url: "ws://127.0.0.1:\(port)/client-close")
        try await client.connect()
        var iterator = client.messages.makeAsyncIterator()
        for size in Self.sizes {
            let text = text(ofSize: size)
            try await client.send(text: text)
            let echoedText = await iterator.next()
            XCTAssertEqual(echoedText, .text(text), "text of \(size) bytes")
            let bytes = Data(testBytes(count: size, seed: UInt64(size) &+ 7))
            try await client.send(data: bytes)
            let echoedBinary = await iterator.next()
            XCTAssertEqual(echoedBinary, .binary(bytes), "binary of \(size) bytes")
        }
        try await client.ping(timeout: .seconds(10))

        let info = await client.close(code: WebSocketCloseCode(4001), reason: "client bye")
        XCTAssertEqual(info.code.rawValue, 4001, "websockets echoes our close code")
        XCTAssertTrue(info.wasClean)
        let serverSaw = try await peer.line(startingWith: "CLOSED path=/client-close")
        XCTAssertTrue(serverSaw.contains("rcvd=4001:client bye"), serverSaw)
    }

    func testPythonServerClosingReachesClientWithCodeAndReason() async throws {
        let (peer, port) = try await startPythonServer()
        defer { peer.stop() }
        let client = try WebSocket(url: "ws://127.0.0.1:\(port)/server-close")
        try await client.connect()
        try await client.send(text: "close:4002:server bye")
        let info = await client.closed
        XCTAssertEqual(info.code.rawValue, 4002)
        XCTAssertEqual(info.reason, "server bye")
        XCTAssertTrue(info.wasClean)
        XCTAssertNil(info.error)
        let serverSaw = try await peer.line(startingWith: "CLOSED path=/server-close")
        XCTAssertTrue(serverSaw.contains("sent=4002:server bye"), serverSaw)
        XCTAssertTrue(serverSaw.contains("rcvd=4002:"), "our client echoes the server's code: \(serverSaw)")
    }

    // MARK: Server role

    /// Our server: echoes, closes with 4002 when asked, and records how each connection ended.
    private func startWireKitServer(closes: LockedBox<[WebSocketCloseInfo]>) throws -> WebSocketServer {
        try WebSocketServer.start(host: "127.0.0.1", port: 0) { connection in
            connection.onText = { [weak connection] text in
                guard let connection else { return }
                if text == "please close" {
                    connection.disconnect(code: WebSocketCloseCode(4002), reason: "server bye")
                } else {
                    try? connection.write(text: text)
                }
            }
            connection.onBinary = { [weak connection] data in try? connection?.write(data: data) }
            connection.onClose = { info in closes.mutate { $0.append(info) } }
        }
    }

    func testPythonClientEchoesThroughServerPingsAndClosesWithItsCode() async throws {
        let closes = LockedBox<[WebSocketCloseInfo]>([])
        let server = try startWireKitServer(closes: closes)
        let peer = try PythonPeer(script: "client.py", arguments: ["ws://127.0.0.1:\(server.port)/", "echo"])
        defer { peer.stop() }
        let status = try await peer.exitStatus()
        let output = peer.output
        XCTAssertEqual(status, 0, "python client output: \(output)")
        for size in Self.sizes {
            XCTAssertTrue(output.contains("OK text \(size)"), "text \(size): \(output)")
            XCTAssertTrue(output.contains("OK binary \(size)"), "binary \(size): \(output)")
        }
        XCTAssertTrue(output.contains("OK ping"), "\(output)")
        XCTAssertTrue(
            output.contains("CLOSED rcvd=4001:client bye sent=4001:client bye")
                || output.contains("CLOSED rcvd=4001: sent=4001:client bye"), "\(output)")
        for _ in 0..<200 where closes.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(closes.value.first?.code.rawValue, 4001)
        XCTAssertEqual(closes.value.first?.reason, "client bye")
        XCTAssertEqual(closes.value.first?.wasClean, true)
        await server.stop()
    }

    func testServerClosingReachesPythonClientWithCodeAndReason() async throws {
        let closes = LockedBox<[WebSocketCloseInfo]>([])
        let server = try startWireKitServer(closes: closes)
        let peer = try PythonPeer(script: "client.py", arguments: ["ws://127.0.0.1:\(server.port)/", "server-close"])
        defer { peer.stop() }
        let status = try await peer.exitStatus()
        XCTAssertEqual(status, 0, "\(peer.output)")
        let closed = try await peer.line(startingWith: "CLOSED")
        XCTAssertTrue(closed.hasPrefix("CLOSED rcvd=4002:server bye sent=4002"), closed)
        for _ in 0..<200 where closes.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(closes.value.first?.code.rawValue, 4002, "the server sees the client's echo of its code")
        XCTAssertEqual(closes.value.first?.wasClean, true)
        await server.stop()
    }
}
