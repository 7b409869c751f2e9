import Foundation
import TestSupport
import XCTest
@testable import WireKit

/// What WireKit's connections log, over real loopback sockets: each test captures the records of
/// one side and checks the line that matters with its metadata.
final class ConnectionLogTests: XCTestCase {
    private static let upgrade =
        "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    private func closedPort() async throws -> Int {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        try await Task.sleep(for: .milliseconds(50))
        return port
    }

    func testARefusedConnectionIsLoggedWithItsAttemptAndOutcome() async throws {
        let port = try await closedPort()
        let capture = LogCapture()
        let client = try WebSocket(url: "ws://127.0.0.1:\(port)/", options: configured(WebSocketOptions()) { $0.logSink = capture.sink() })
        do {
            try await client.connect()
            XCTFail("connect must fail")
        } catch {}
        let connecting = await capture.first(.transport, "connecting")
        let refused = await capture.first(.transport, "connection refused")
        XCTAssertEqual(connecting?.level, .debug, capture.transcript)
        XCTAssertEqual(refused?.level, .warning, capture.transcript)
        XCTAssertEqual(refused?.metadata["outcome"], "refused")
        XCTAssertEqual(refused?.metadata["host"], "127.0.0.1")
        XCTAssertEqual(refused?.metadata["port"], String(port))
        XCTAssertEqual(refused?.metadata["role"], "client")
        XCTAssertTrue(refused?.metadata["reason"]?.contains("refused") ?? false, capture.transcript)
        // Both records name the same connection, and it is numbered (the sink is on).
        XCTAssertEqual(refused?.metadata["connection"], connecting?.metadata["connection"])
        XCTAssertEqual(refused?.metadata["connection"], String(client.logConnection))
        XCTAssertNotEqual(client.logConnection, 0)
    }

    func testASuccessfulExchangeLogsConnectedOpenAndACleanClose() async throws {
        let serverCapture = LogCapture()
        let server = try WebSocketServer.start(
            host: "127.0.0.1", port: 0,
            options: configured(WebSocketServerOptions()) { $0.logSink = serverCapture.sink() }
        ) { _ in }
        let capture = LogCapture()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/", options: configured(WebSocketOptions()) { $0.logSink = capture.sink() })
        try await client.connect()
        _ = await client.close(code: .normalClosure, reason: "done")
        let closed = await capture.first(.webSocket, "closed")
        let connected = await capture.first(.transport, "connected")
        let open = await capture.first(.webSocket, "open")
        XCTAssertNotNil(connected, capture.transcript)
        XCTAssertEqual(open?.metadata["connection"], connected?.metadata["connection"])
        XCTAssertEqual(closed?.level, .debug)
        XCTAssertEqual(closed?.metadata["code"], "1000")
        XCTAssertEqual(closed?.metadata["clean"], "true")
        let serverClosed = await serverCapture.first(.webSocket, "closed")
        XCTAssertEqual(serverClosed?.metadata["reason"], "done", serverCapture.transcript)
        let listening = await serverCapture.first(.transport, "listening")
        XCTAssertEqual(listening?.metadata["port"], String(server.port))
        let accepted = await serverCapture.first(.transport, "accepted")
        XCTAssertEqual(accepted?.metadata["role"], "server")
        XCTAssertTrue(accepted?.metadata["peer"]?.hasPrefix("127.0.0.1:") ?? false, serverCapture.transcript)
        await server.stop()
    }

    func testAnUpgradeRefusedByTheServerIsAHandshakeRejectionOnBothSides() async throws {
        let serverCapture = LogCapture()
        var options = configured(WebSocketServerOptions()) { $0.logSink = serverCapture.sink() }
        options.acceptRequest = { _ in .refuse(status: 403) }
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { _ in }
        let capture = LogCapture()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/", options: configured(WebSocketOptions()) { $0.logSink = capture.sink() })
        do {
            try await client.connect()
            XCTFail("the upgrade must be refused")
        } catch {}
        let rejected = await capture.first(.webSocket, "handshake rejected")
        XCTAssertEqual(rejected?.level, .warning, capture.transcript)
        XCTAssertEqual(rejected?.metadata["status"], "403")
        let refused = await serverCapture.first(.webSocket, "upgrade request refused")
        XCTAssertEqual(refused?.metadata["status"], "403", serverCapture.transcript)
        XCTAssertEqual(refused?.metadata["role"], "server")
        await server.stop()
    }

    func testAProtocolViolationIsLoggedWithTheCloseCodeSent() async throws {
        let capture = LogCapture()
        let server = try WebSocketServer.start(
            host: "127.0.0.1", port: 0,
            options: configured(WebSocketServerOptions()) { $0.logSink = capture.sink() }
        ) { _ in }
        // A valid upgrade followed by an unmasked text frame "hi": the server fails the connection.
        let reply = try rawExchangeBytes(port: server.port, request: Self.upgrade, extra: [0x81, 0x02, 0x68, 0x69])
        let headEnd = try XCTUnwrap((0..<max(0, reply.count - 3)).first { reply[$0..<$0 + 4] == [13, 10, 13, 10] })
        let frame = Array(reply[(headEnd + 4)...])
        let sent = frame.count >= 4 && frame[0] == 0x88 ? UInt16(frame[2]) << 8 | UInt16(frame[3]) : 0
        XCTAssertEqual(sent, 1002)
        let violation = await capture.first(.webSocket, "protocol violation by the peer")
        XCTAssertEqual(violation?.level, .error, capture.transcript)
        XCTAssertEqual(violation?.metadata["code"], String(sent))
        XCTAssertEqual(violation?.metadata["role"], "server")
        XCTAssertNotNil(violation?.metadata["reason"])
        await server.stop()
    }

    func testAMessageAboveTheLimitIsLoggedWithItsSizeAndTheLimit() async throws {
        let capture = LogCapture()
        var options = configured(WebSocketServerOptions()) { $0.logSink = capture.sink() }
        options.maxMessageSize = 100
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { _ in }
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        try await client.send(text: String(repeating: "x", count: 1_000))
        let tooBig = await capture.first(.webSocket, "message too big")
        XCTAssertEqual(tooBig?.level, .notice, capture.transcript)
        XCTAssertEqual(tooBig?.metadata["code"], "1009")
        XCTAssertEqual(tooBig?.metadata["limit"], "100")
        XCTAssertEqual(tooBig?.metadata["size"], "1000")
        _ = await client.close()
        await server.stop()
    }

    func testASendBufferFullRefusalIsLogged() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        let capture = LogCapture()
        var options = configured(WebSocketOptions()) { $0.logSink = capture.sink() }
        options.writeLimit = 64 << 10
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let chunk = Data(count: 32 << 10)
        var refused = false
        for _ in 0..<10_000 where !refused {
            do { try client.write(data: chunk) } catch { refused = true }
        }
        XCTAssertTrue(refused, "the stalled peer never filled the send buffer")
        let full = await capture.first(.webSocket, "write refused: send buffer full")
        XCTAssertEqual(full?.level, .notice, capture.transcript)
        XCTAssertEqual(full?.metadata["limit"], String(64 << 10))
        XCTAssertNotNil(full?.metadata["buffered"].flatMap(Int.init))
        peer.startDraining()
        client.disconnect()
    }

    #if canImport(Glibc)
    func testATLSFailureCarriesOpenSSLsReasonOnBothSides() async throws {
        let serverCapture = LogCapture()
        var serverOptions = configured(WebSocketServerOptions()) { $0.logSink = serverCapture.sink() }
        serverOptions.tls = TLSTestCertificates.server("server")
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: serverOptions) { _ in }
        let capture = LogCapture()
        // The system trust store does not hold the test CA: OpenSSL refuses the chain.
        let client = try WebSocket(url: "wss://localhost:\(server.port)/", options: configured(WebSocketOptions()) { $0.logSink = capture.sink() })
        var thrown: WebSocketError?
        do { try await client.connect() } catch { thrown = error }
        guard let thrown, thrown.code == .tls, let tls = thrown.tlsError, tls.code == .certificateUntrusted else {
            return XCTFail("got \(String(describing: thrown))")
        }
        let failed = await capture.first(.tls, "TLS failed")
        XCTAssertEqual(failed?.level, .error, capture.transcript)
        XCTAssertFalse(tls.message.isEmpty)
        XCTAssertTrue(failed?.metadata["reason"]?.contains(tls.message) ?? false, capture.transcript)
        // The server hears the client's alert, in OpenSSL's words.
        let serverFailed = await serverCapture.first(.tls, "TLS failed")
        XCTAssertEqual(serverFailed?.metadata["role"], "server", serverCapture.transcript)
        XCTAssertTrue(serverFailed?.metadata["reason"]?.contains("unknown ca") ?? false, serverCapture.transcript)
        await server.stop()
    }
    #endif

    func testNothingIsLoggedOrNumberedWithoutASink() async throws {
        for level in LogLevel.allCases {
            XCTAssertFalse(WebSocketOptions().logSink.isEnabled(level))
            XCTAssertFalse(WebSocketServerOptions().logSink.isEnabled(level))
        }
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0) { _ in }
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        _ = await client.close()
        // Off: the connection took no number (the counter is not even touched).
        XCTAssertEqual(client.logConnection, 0)
        await server.stop()
    }

    func testASinkAboveTheLevelsOfACleanExchangeReceivesNothing() async throws {
        let capture = LogCapture()
        let server = try WebSocketServer.start(
            host: "127.0.0.1", port: 0,
            options: configured(WebSocketServerOptions()) { $0.logSink = capture.sink(minimumLevel: .notice) }
        ) { socket in
            socket.onText = { [weak socket] text in try? socket?.write(text: text) }
        }
        let client = try WebSocket(
            url: "ws://127.0.0.1:\(server.port)/", options: configured(WebSocketOptions()) { $0.logSink = capture.sink(minimumLevel: .notice) })
        try await client.connect()
        var iterator = client.messages.makeAsyncIterator()
        try await client.send(text: "echo")
        _ = await iterator.next()
        _ = await client.close()
        await server.stop()
        XCTAssertEqual(capture.records, [], capture.transcript)
    }
}
