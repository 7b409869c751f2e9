#if canImport(Glibc)
import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// `TLSTransport` over real loopback sockets: our TLS client against our TLS server.
final class TLSTransportTests: XCTestCase {
    /// Records a transport's events; waits for `.closed`.
    private final class EventLog: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var _received: [UInt8] = []
        private var _events: [String] = []
        private var _closedError: TransportError??
        let connected: XCTestExpectation
        let closed: XCTestExpectation
        var onConnected: (@Sendable () -> Void)?
        var onInputClosed: (@Sendable () -> Void)?
        var expectedBytes = 0
        var onAllReceived: (@Sendable () -> Void)?

        init(_ name: String) {
            connected = XCTestExpectation(description: "\(name) connected")
            closed = XCTestExpectation(description: "\(name) closed")
        }

        var received: [UInt8] { lock.withLock { _received } }
        var events: [String] { lock.withLock { _events } }
        var closedError: TransportError?? { lock.withLock { _closedError } }

        func handle(_ event: TransportEvent) {
            switch event {
            case .connected:
                lock.withLock { _events.append("connected") }
                connected.fulfill()
                onConnected?()
            case .received(let bytes):
                let total = lock.withLock { () -> Int in
                    _received.append(contentsOf: bytes)
                    return _received.count
                }
                if expectedBytes > 0, total == expectedBytes { onAllReceived?() }
            case .writable:
                break
            case .inputClosed:
                lock.withLock { _events.append("inputClosed") }
                onInputClosed?()
            case .closed(let error):
                lock.withLock {
                    _events.append("closed")
                    _closedError = .some(error)
                }
                closed.fulfill()
            }
        }
    }

    /// A TLS echo server on 127.0.0.1: echoes every byte, closes when the client finished. Each
    /// connection runs on its own queue, so connections share the TLS context across threads.
    private final class EchoServer: @unchecked Sendable {
        let listener: TCPListener
        let serverClosed = XCTestExpectation(description: "server connection closed")
        // Guarded by `lock`.
        private let lock = NSLock()
        private var connections: [TLSTransport] = []
        private var _serverEvents: [String] = []
        var serverEvents: [String] { lock.withLock { _serverEvents } }

        init(identity: String, expectedConnections: Int = 1) throws {
            listener = try TCPListener(host: "127.0.0.1", port: 0)
            serverClosed.expectedFulfillmentCount = expectedConnections
            let tls = try TLSServerIdentity(TLSTestCertificates.server(identity))
            listener.start { [self] accepted in
                let connection = TLSTransport(server: accepted, identity: tls)
                lock.withLock { connections.append(connection) }
                connection.start(queue: DispatchQueue(label: "TLSTransportTests.server")) { [self] event in
                    switch event {
                    case .received(let bytes):
                        connection.write(Array(bytes))
                    case .inputClosed:
                        record("inputClosed")
                        connection.close()
                    case .closed(let error):
                        record("closed \(error.map { "\($0)" } ?? "cleanly")")
                        serverClosed.fulfill()
                    case .connected:
                        record("connected")
                    case .writable:
                        break
                    }
                }
            }
        }

        private func record(_ event: String) { lock.withLock { _serverEvents.append(event) } }

        func stop() { listener.close() }
    }

    private let clientQueue = DispatchQueue(label: "TLSTransportTests.client")

    func testEchoOfOneMebibyteThroughTheTestRootThenCleanClose() throws {
        let server = try EchoServer(identity: "server")
        defer { server.stop() }
        let client = TLSTransport(
            host: "localhost", port: server.listener.port, configuration: TLSTestCertificates.trustingTestCA)
        let log = EventLog("client")
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        log.expectedBytes = payload.count
        let queue = clientQueue
        log.onConnected = { client.write(payload) }
        log.onAllReceived = { queue.async { client.close() } }
        client.start(queue: queue, handler: log.handle)

        wait(for: [log.connected, log.closed, server.serverClosed], timeout: 20)
        XCTAssertEqual(log.received.count, payload.count)
        XCTAssertTrue(log.received == payload)
        XCTAssertEqual(log.events, ["connected", "closed"])
        XCTAssertEqual(log.closedError, .some(nil))
        XCTAssertEqual(server.serverEvents, ["connected", "inputClosed", "closed cleanly"])
    }

    func testFiftyConcurrentConnectionsEachEchoTheirOwnBytes() throws {
        let count = 50
        let server = try EchoServer(identity: "server", expectedConnections: count)
        defer { server.stop() }
        var logs: [EventLog] = []
        var clients: [TLSTransport] = []
        for index in 0..<count {
            let client = TLSTransport(
                host: "localhost", port: server.listener.port, configuration: TLSTestCertificates.trustingTestCA)
            let log = EventLog("client \(index)")
            let payload = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            log.expectedBytes = payload.count
            let queue = DispatchQueue(label: "TLSTransportTests.client.\(index)")
            log.onConnected = { client.write(payload) }
            log.onAllReceived = { queue.async { client.close() } }
            client.start(queue: queue, handler: log.handle)
            logs.append(log)
            clients.append(client)
        }
        wait(for: logs.map(\.closed) + [server.serverClosed], timeout: 60)
        for (index, log) in logs.enumerated() {
            let expected = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            XCTAssertTrue(log.received == expected, "connection \(index)")
            XCTAssertEqual(log.closedError, .some(nil), "connection \(index)")
        }
    }

    func testExpiredServerCertificateEndsWithItsError() throws {
        try assertClientFails(against: "expired", expecting: .certificateExpired)
    }

    func testWrongHostServerCertificateEndsWithHostnameMismatch() throws {
        try assertClientFails(against: "wrong-host", expecting: .hostnameMismatch(expected: "localhost"))
    }

    func testPinMismatchEndsWithItsError() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("expired")]
        let expected = TLSError.pinMismatch(
            presented: [try TLSTestCertificates.pin("server"), try TLSTestCertificates.pin("ca")].map(\.description))
        try assertClientFails(against: "server", configuration: configuration, expecting: expected)
    }

    func testBracketedIPv6HostIsVerifiedAgainstTheCertificate() throws {
        let listener = try TCPListener(host: "::1", port: 0)
        defer { listener.close() }
        let identity = try TLSServerIdentity(TLSTestCertificates.server("server"))
        let serverQueue = DispatchQueue(label: "TLSTransportTests.v6")
        // The test waits for the server side to close too: a test process that exits while a
        // TLS connection still works on another queue races OpenSSL's clean-up at exit.
        let serverClosed = expectation(description: "server side closed")
        listener.start { accepted in
            let connection = TLSTransport(server: accepted, identity: identity)
            connection.start(queue: serverQueue) { event in
                switch event {
                case .inputClosed: connection.close()
                case .closed: serverClosed.fulfill()
                default: break
                }
            }
        }
        let client = TLSTransport(host: "[::1]", port: listener.port, configuration: TLSTestCertificates.trustingTestCA)
        let log = EventLog("client")
        log.onConnected = { client.close() }
        client.start(queue: clientQueue, handler: log.handle)
        wait(for: [log.connected, log.closed, serverClosed], timeout: 10)
    }

    func testSilentServerEndsWithHandshakeTimeout() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let silentQueue = DispatchQueue(label: "TLSTransportTests.silent")
        nonisolated(unsafe) var held: [TCPTransport] = []  // touched on silentQueue only
        listener.start { accepted in
            silentQueue.async { held.append(accepted) }
            accepted.start(queue: silentQueue) { _ in }
        }
        let client = TLSTransport(
            host: "localhost", port: listener.port, handshakeTimeout: .milliseconds(300),
            configuration: TLSTestCertificates.trustingTestCA)
        let log = EventLog("client")
        client.start(queue: clientQueue, handler: log.handle)
        wait(for: [log.closed], timeout: 10)
        guard case .some(.some(let error)) = log.closedError, let tls = error.tlsError, tls.code == .handshakeFailed else {
            return XCTFail("expected a handshake timeout, got \(String(describing: log.closedError))")
        }
        let reason = tls.message
        XCTAssertTrue(reason.contains("within 0.3 s"), reason)
        XCTAssertEqual(log.events, ["closed"])
        silentQueue.sync { held.forEach { $0.close() } }
    }

    func testPlainTCPServerEndsWithHandshakeFailure() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let plainQueue = DispatchQueue(label: "TLSTransportTests.plain")
        listener.start { accepted in
            accepted.start(queue: plainQueue) { event in
                if case .received = event {
                    accepted.write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
                    accepted.close()
                }
            }
        }
        let client = TLSTransport(host: "localhost", port: listener.port, configuration: TLSTestCertificates.trustingTestCA)
        let log = EventLog("client")
        client.start(queue: clientQueue, handler: log.handle)
        wait(for: [log.closed], timeout: 10)
        guard case .some(.some(let error)) = log.closedError, error.tlsError?.code == .handshakeFailed else {
            return XCTFail("expected handshakeFailed, got \(String(describing: log.closedError))")
        }
    }

    private func assertClientFails(
        against identity: String, configuration: TLSConfiguration = TLSTestCertificates.trustingTestCA,
        expecting expected: TLSError, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let server = try EchoServer(identity: identity)
        defer { server.stop() }
        let client = TLSTransport(host: "localhost", port: server.listener.port, configuration: configuration)
        let log = EventLog("client")
        client.start(queue: clientQueue, handler: log.handle)
        wait(for: [log.closed], timeout: 10)
        XCTAssertEqual(log.closedError, .some(.tls(expected)), file: file, line: line)
        XCTAssertEqual(log.events, ["closed"], "no .connected before a verification failure", file: file, line: line)
    }
}
#endif
