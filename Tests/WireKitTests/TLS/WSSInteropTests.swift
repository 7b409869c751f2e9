#if canImport(Glibc)
import Dispatch
import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// `wss://` end to end with Python `websockets` + `ssl`: our client against its TLS server, and
/// its `wss://` client against our TLS server role.
final class WSSInteropTests: XCTestCase {
    private static let sizes = [0, 125, 126, 65535, 65536, 1 << 20]
    private var server: TLSPythonPeer?
    private var ports: [String: Int] = [:]

    private func startPythonServer() throws {
        let certificates = TLSTestCertificates.directory.path
        let identities = ["server", "expired", "wrong-host", "untrusted"].map {
            "\($0):\(certificates)/\($0).pem:\(certificates)/\($0)-key.pem"
        }
        let peer = try TLSPythonPeer(script: "wss_echo_server.py", arguments: identities)
        server = peer
        ports = try peer.nextJSON().compactMapValues { $0 as? Int }
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func url(_ identity: String, host: String = "localhost") throws -> String {
        let port = try XCTUnwrap(ports[identity], "no port for \(identity)")
        let authority = host.contains(":") ? "[\(host)]" : host
        return "wss://\(authority):\(port)/"
    }

    private func client(
        _ identity: String, host: String = "localhost", configuration: TLSConfiguration = TLSTestCertificates.trustingTestCA
    ) throws -> WebSocket {
        try WebSocket(url: url(identity, host: host), options: configured(WebSocketOptions()) { $0.transportFactory = .tls(configuration) })
    }

    func testDefaultOptionsVerifyAgainstTheSystemStore() async throws {
        try startPythonServer()
        let socket = try WebSocket(url: url("server"))
        await assertConnectFails(socket, with: .certificateUntrusted(reason: "unable to get local issuer certificate"))
    }

    /// Connects; `connect()` must throw `WebSocketError.tls(expected)`.
    private func assertConnectFails(
        _ socket: WebSocket, with expected: TLSError, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            try await socket.connect()
            XCTFail("connected despite \(expected)", file: file, line: line)
        } catch let error where error.code == .tls {
            XCTAssertEqual(error.tlsError, expected, file: file, line: line)
        } catch {
            XCTFail("expected WebSocketError.tls(\(expected)), got \(error)", file: file, line: line)
        }
    }

    // MARK: Client role against Python

    func testWSSEchoesTextAndBinaryUpToOneMebibyteThroughTheTestRootAndClosesCleanly() async throws {
        try startPythonServer()
        let socket = try client("server")
        try await socket.connect()
        var iterator = socket.messages.makeAsyncIterator()
        for size in Self.sizes {
            let text = String(repeating: "é", count: size / 2) + (size % 2 == 1 ? "a" : "")
            try await socket.send(text: text)
            let echoedText = await iterator.next()
            XCTAssertEqual(echoedText, .text(text), "text of \(size) bytes")
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
            try await socket.send(data: bytes)
            let echoedBinary = await iterator.next()
            XCTAssertEqual(echoedBinary, .binary(bytes), "binary of \(size) bytes")
        }
        let info = await socket.close(code: .normalClosure, reason: "client done")
        XCTAssertEqual(info.code, .normalClosure)
        XCTAssertTrue(info.wasClean)
        XCTAssertNil(info.error)
        let serverSaw = try XCTUnwrap(server).nextJSON()
        XCTAssertEqual(serverSaw["closed"] as? String, "server")
        XCTAssertEqual(serverSaw["code"] as? Int, 1000)
        XCTAssertEqual(serverSaw["reason"] as? String, "client done")
    }

    func testServerInitiatedCloseOverWSSIsClean() async throws {
        try startPythonServer()
        let socket = try client("server", host: "127.0.0.1")
        try await socket.connect()
        try await socket.send(text: "close-from-server")
        let info = await socket.closed
        XCTAssertEqual(info.code, .normalClosure)
        XCTAssertEqual(info.reason, "server bye")
        XCTAssertTrue(info.wasClean)
        XCTAssertNil(info.error)
        let serverSaw = try XCTUnwrap(server).nextJSON()
        XCTAssertEqual(serverSaw["code"] as? Int, 1000)
    }

    func testWrongHostNameIsRejected() async throws {
        try startPythonServer()
        await assertConnectFails(try client("wrong-host"), with: .hostnameMismatch(expected: "localhost"))
    }

    func testUntrustedRootIsRejected() async throws {
        try startPythonServer()
        await assertConnectFails(
            try client("server", configuration: TLSConfiguration()),
            with: .certificateUntrusted(reason: "unable to get local issuer certificate"))
    }

    func testExpiredCertificateIsRejected() async throws {
        try startPythonServer()
        await assertConnectFails(try client("expired"), with: .certificateExpired)
    }

    func testPinMatchConnectsAndPinMismatchIsRejected() async throws {
        try startPythonServer()
        var pinned = TLSTestCertificates.trustingTestCA
        pinned.pinnedPublicKeys = [try TLSTestCertificates.pin("ca")]
        let matching = try client("server", configuration: pinned)
        try await matching.connect()
        _ = await matching.close(code: .normalClosure, reason: "")

        pinned.pinnedPublicKeys = [try TLSTestCertificates.pin("untrusted")]
        let presented = [try TLSTestCertificates.pin("server"), try TLSTestCertificates.pin("ca")].map(\.description)
        await assertConnectFails(try client("server", configuration: pinned), with: .pinMismatch(presented: presented))
    }

    func testTestingOptOutConnectsToAnUntrustedCertificate() async throws {
        try startPythonServer()
        var configuration = TLSConfiguration()
        configuration.allowUntrustedCertificatesForTestingOnly = true
        let socket = try client("untrusted", configuration: configuration)
        try await socket.connect()
        try await socket.send(text: "through the opt-out")
        var iterator = socket.messages.makeAsyncIterator()
        let echoed = await iterator.next()
        XCTAssertEqual(echoed, .text("through the opt-out"))
        let info = await socket.close(code: .normalClosure, reason: "")
        XCTAssertTrue(info.wasClean)
    }

    func testWSSURLDefaultsToPort443() throws {
        let url = try WebSocketURL("wss://example.com/socketcluster/")
        XCTAssertTrue(url.isSecure)
        XCTAssertEqual(url.port, 443)
        XCTAssertEqual(url.host, "example.com")
    }

    // MARK: Server role against Python's wss:// client

    func testPythonWSSClientEchoesThroughTheWireKitTLSServer() throws {
        let options = configured(WebSocketServerOptions()) { $0.tls = TLSTestCertificates.server("server") }
        let lock = NSLock()
        nonisolated(unsafe) var closes: [WebSocketCloseInfo] = []  // guarded by `lock`
        let closed = XCTestExpectation(description: "server side closed")
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { socket in
            socket.onText = { [weak socket] text in try? socket?.write(text: text) }
            socket.onBinary = { [weak socket] data in try? socket?.write(data: data) }
            socket.onClose = { info in
                lock.withLock { closes.append(info) }
                closed.fulfill()
            }
        }
        defer { server.stop {} }
        let peer = try TLSPythonPeer(
            script: "wss_client.py",
            arguments: ["wss://localhost:\(server.port)/", TLSTestCertificates.url("ca.pem").path])
        defer { peer.stop() }
        let result = try peer.nextJSON(timeout: 60)
        XCTAssertEqual(result["ok"] as? Bool, true, "\(result) \(peer.standardErrorText)")
        XCTAssertEqual(result["echoed"] as? Int, 2 * Self.sizes.count)
        XCTAssertEqual(result["close_code"] as? Int, 1000)
        XCTAssertEqual(peer.waitForExit(), 0)
        wait(for: [closed], timeout: 10)
        let serverSide = lock.withLock { closes }
        XCTAssertEqual(serverSide.first?.code, .normalClosure)
        XCTAssertEqual(serverSide.first?.reason, "client done")
        XCTAssertEqual(serverSide.first?.wasClean, true)
    }

    func testServerTLSWithAKeyNotMatchingItsCertificateFailsAtStart() {
        let mismatched = TLSServerConfiguration(
            certificateChainPEM: TLSTestCertificates.text("server.pem"),
            privateKeyPEM: TLSTestCertificates.text("expired-key.pem"))
        XCTAssertThrowsError(try WebSocketServer.start(options: configured(WebSocketServerOptions()) { $0.tls = mismatched })) { error in
            guard (error as? WebSocketError)?.tlsError?.code == .invalidConfiguration else {
                return XCTFail("expected .tls(.invalidConfiguration), got \(error)")
            }
        }
    }

    func testPlainClientAgainstTheTLSServerFailsItsHandshakeWithoutHarm() async throws {
        let options = configured(WebSocketServerOptions()) { $0.tls = TLSTestCertificates.server("server") }
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { _ in }
        let plain = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        do {
            try await plain.connect()
            XCTFail("a plain ws:// client must not get through a TLS server")
        } catch {}
        // The server still serves TLS clients afterwards.
        let secure = try WebSocket(
            url: "wss://127.0.0.1:\(server.port)/",
            options: configured(WebSocketOptions()) { $0.transportFactory = .tls(TLSTestCertificates.trustingTestCA) })
        try await secure.connect()
        let info = await secure.close(code: .normalClosure, reason: "")
        XCTAssertTrue(info.wasClean)
        await server.stop()
    }
}
#endif
