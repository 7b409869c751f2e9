import TestSupport
import XCTest
@testable import WireKit

/// How each way a connection can end becomes one record: its subsystem, level and message, with
/// the close code sent. The network tests (ConnectionLogTests) show the common ones over real
/// sockets; this table covers every case of `WebSocketError` and `TransportError` it maps.
final class ConnectionLogMappingTests: XCTestCase {
    private func record(for error: WebSocketError?, code: WebSocketCloseCode = .abnormalClosure) throws -> LogRecord {
        let capture = LogCapture()
        let log = ConnectionLog(
            sink: capture.sink(), client: try WebSocketURL("ws://example.com:8080/"),
            proxy: HTTPProxy(host: "proxy.example", port: 3128))
        log.closed(WebSocketCloseInfo(code: code, reason: "why", wasClean: error == nil, error: error))
        XCTAssertEqual(capture.records.count, 1, capture.transcript)
        let record = try XCTUnwrap(capture.records.first)
        XCTAssertEqual(record.metadata["host"], "example.com")
        XCTAssertEqual(record.metadata["port"], "8080")
        XCTAssertEqual(record.metadata["connection"], String(log.connection))
        return record
    }

    func testEveryEndMapsToOneRecord() throws {
        let cases: [(WebSocketError?, WebSocketCloseCode, LogSubsystem, LogLevel, String)] = [
            (nil, .normalClosure, .webSocket, .debug, "closed"),
            (.transport(.connectionRefused(host: "example.com", port: 8080)), .abnormalClosure, .transport, .warning, "connection refused"),
            (.transport(.hostNotFound(host: "example.com", detail: "NXDOMAIN")), .abnormalClosure, .transport, .warning, "host not found"),
            (
                .transport(.connectTimedOut(host: "example.com", port: 8080, timeout: .seconds(5))), .abnormalClosure, .transport, .warning,
                "connect timed out"
            ),
            (.transport(.unreachable(host: "example.com", port: 8080)), .abnormalClosure, .transport, .warning, "network unreachable"),
            (.transport(.connectionReset), .abnormalClosure, .transport, .warning, "connection reset"),
            (.transport(.system(operation: "connect", errno: 22)), .abnormalClosure, .transport, .warning, "connection failed"),
            (.transport(.proxy(.refused(status: 403, reason: "Forbidden"))), .abnormalClosure, .transport, .warning, "proxy failed"),
            (.transport(.tls(.certificateExpired)), .abnormalClosure, .tls, .error, "TLS failed"),
            (.tls(.hostnameMismatch(expected: "example.com")), .tlsHandshakeFailure, .tls, .error, "TLS failed"),
            (
                .handshakeRejected(status: 403, headers: HTTPHeaders(), body: []), .abnormalClosure, .webSocket, .warning,
                "handshake rejected"
            ),
            (
                .redirected(status: 301, location: "wss://example.com/", headers: HTTPHeaders()), .abnormalClosure, .webSocket, .warning,
                "handshake redirected (not followed)"
            ),
            (.invalidHandshakeResponse("bad accept"), .abnormalClosure, .webSocket, .error, "invalid handshake response"),
            (.invalidUpgradeRequest(status: 400, reason: "no key"), .abnormalClosure, .webSocket, .notice, "upgrade request refused"),
            (.protocolViolation(.continuationWithoutMessage), .protocolError, .webSocket, .error, "protocol violation by the peer"),
            (.invalidUTF8("truncated"), .invalidFramePayloadData, .webSocket, .error, "invalid UTF-8 from the peer"),
            (.messageTooBig(size: 2_000, limit: 1_000), .messageTooBig, .webSocket, .notice, "message too big"),
            (.timedOut(.pong(limit: .seconds(20))), .abnormalClosure, .webSocket, .warning, "timed out"),
            (.connectionClosed("EOF"), .abnormalClosure, .webSocket, .notice, "connection lost without a close handshake"),
            (.notOpen, .abnormalClosure, .webSocket, .warning, "failed"),
        ]
        for (error, code, subsystem, level, message) in cases {
            let record = try record(for: error, code: code)
            XCTAssertEqual(record.subsystem, subsystem, "\(String(describing: error))")
            XCTAssertEqual(record.level, level, "\(String(describing: error))")
            XCTAssertEqual(record.message, message, "\(String(describing: error))")
            if subsystem == .webSocket, record.metadata["status"] == nil, message != "invalid handshake response" {
                XCTAssertEqual(record.metadata["code"], String(code.rawValue), "\(String(describing: error))")
            }
        }
    }

    func testTheProxyIsNamedWhenConnecting() throws {
        let capture = LogCapture()
        let log = ConnectionLog(
            sink: capture.sink(), client: try WebSocketURL("ws://example.com/"),
            proxy: HTTPProxy(host: "proxy.example", port: 3128))
        log.connecting()
        XCTAssertEqual(capture.records.first?.metadata["proxy"], "proxy.example:3128")
    }

    func testOffTakesNoNumberAndNeverAsksForThePeer() throws {
        let off = ConnectionLog(
            sink: .off,
            serverPeer: { () -> String? in
                XCTFail("the peer was looked up"); return nil
            }())
        XCTAssertEqual(off.connection, 0)
        off.closed(WebSocketCloseInfo(code: .protocolError, reason: "", wasClean: false, error: .protocolViolation(.continuationWithoutMessage)))
    }
}
