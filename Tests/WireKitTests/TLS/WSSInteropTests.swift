#if canImport(Glibc)
import Dispatch
import Foundation
import XCTest
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
        try WebSocket(url: url(identity, host: host), options: WebSocketOptions(transportFactory: .tls(configuration)))
    }

    /// Connects and returns the error, which must mention what TLS reported.
    private func assertConnectFails(
        _ socket: WebSocket, with expected: TLSError, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            try await socket.connect()
            XCTFail("connected despite \(expected)", file: file, line: line)
        } catch {
            XCTAssertTrue(
                "\(error)".contains(expected.description), "\(error) should say \(expected)", file: file, line: line)
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
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let identity = try TLSServerIdentity(TLSTestCertificates.server("server"))
        let lock = NSLock()
        nonisolated(unsafe) var live: [WebSocket] = []  // guarded by `lock`
        nonisolated(unsafe) var closes: [WebSocketCloseInfo] = []  // guarded by `lock`
        let closed = XCTestExpectation(description: "server side closed")
        listener.start { accepted in
            // What WebSocketServer does per connection, with TLS in front of the accepted socket.
            let connection = WebSocketConnection(
                accepted: TLSTransport(server: accepted, identity: identity),
                configuration: WebSocketServerOptions().configuration,
                queue: DispatchQueue(label: "WSSInteropTests.server"), highWaterMark: 1 << 20, pingTimeout: .seconds(10))
            let socket = WebSocket(accepted: connection)
            socket.onText = { [weak socket] text in try? socket?.write(text: text) }
            socket.onBinary = { [weak socket] data in try? socket?.write(data: data) }
            socket.onClose = { info in
                lock.withLock { closes.append(info) }
                closed.fulfill()
            }
            lock.withLock { live.append(socket) }
            connection.start()
        }
        let peer = try TLSPythonPeer(
            script: "wss_client.py",
            arguments: ["wss://localhost:\(listener.port)/", TLSTestCertificates.url("ca.pem").path])
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
        lock.withLock { live.removeAll() }
    }
}
#endif
