#if canImport(Glibc)
import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// `WebSocketServerOptions.tls`: our server serving `wss://` to our client, and the typed TLS
/// errors a client sees.
final class WebSocketServerTLSTests: XCTestCase {
    private func startTLSEchoServer(identity: String = "server") throws -> WebSocketServer {
        var options = WebSocketServerOptions()
        options.tls = TLSTestCertificates.server(identity)
        return try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { connection in
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
            connection.onBinary = { [weak connection] data in try? connection?.write(data: data) }
        }
    }

    func testServerWithTLSOptionEchoesToAWSSClientAndClosesCleanly() async throws {
        let server = try startTLSEchoServer()
        let client = try WebSocket(
            url: "wss://localhost:\(server.port)/secure",
            options: configured(WebSocketOptions()) { $0.transportFactory = .tls(TLSTestCertificates.trustingTestCA) })
        try await client.connect()
        var iterator = client.messages.makeAsyncIterator()
        let payload = Data(testBytes(count: 70_000))
        try await client.send(data: payload)
        let echoed = await iterator.next()
        XCTAssertEqual(echoed, .binary(payload))
        try await client.send(text: "über TLS")
        let text = await iterator.next()
        XCTAssertEqual(text, .text("über TLS"))
        let info = await client.close(code: .normalClosure, reason: "bye")
        XCTAssertEqual(info.code, .normalClosure)
        XCTAssertTrue(info.wasClean)
        await server.stop()
    }

    func testExpiredServerCertificateIsATypedTLSError() async throws {
        let server = try startTLSEchoServer(identity: "expired")
        let client = try WebSocket(
            url: "wss://localhost:\(server.port)/",
            options: configured(WebSocketOptions()) { $0.transportFactory = .tls(TLSTestCertificates.trustingTestCA) })
        do {
            try await client.connect()
            XCTFail("an expired certificate must be refused")
        } catch {
            XCTAssertEqual(error, .tls(.certificateExpired))
        }
        await server.stop()
    }

    func testDefaultFactoryRefusesACertificateOutsideTheSystemTrustStore() async throws {
        let server = try startTLSEchoServer()
        let client = try WebSocket(url: "wss://localhost:\(server.port)/")
        do {
            try await client.connect()
            XCTFail("the test CA is not in the system trust store")
        } catch {
            guard case .tls = error.code, error.tlsError?.code == .certificateUntrusted else { return XCTFail("got \(error)") }
        }
        await server.stop()
    }

    func testUnusableServerKeyIsReportedByStart() {
        var options = WebSocketServerOptions()
        options.tls = TLSServerConfiguration(certificateChainPEM: "not a certificate", privateKeyPEM: "not a key")
        XCTAssertThrowsError(try WebSocketServer.start(options: options)) { error in
            guard case WebSocketError.Code.tls = error else { return XCTFail("got \(error)") }
        }
    }
}
#endif
