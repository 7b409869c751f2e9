import TestSupport
import XCTest
@testable import WireKit

/// The peer's text reaches a connection's log records escaped: a record is safe to print as it is.
final class ConnectionLogEscapingTests: XCTestCase {
    private let hostile = "bye\u{1B}[2J\u{1B}[H\r\nwarning websocket: forged \u{9B}31m\u{202E}"

    func testEveryRecordBuiltFromAPeersTextIsFreeOfRawControls() throws {
        let ends: [WebSocketError?] = [
            nil, .redirected(status: 302, location: hostile, headers: HTTPHeaders()),
            .handshakeRejected(status: 403, headers: HTTPHeaders(), body: Array(hostile.utf8)), .invalidHandshakeResponse(hostile),
            .invalidUpgradeRequest(status: 400, reason: hostile), .invalidUTF8(hostile), .connectionClosed(hostile),
            .protocolViolation(.invalidCompressedData(reason: hostile)), .transport(.proxy(.refused(status: 403, reason: hostile))),
            .tls(.handshakeFailed(reason: hostile)), .invalidURL(hostile),
        ]
        for end in ends {
            let capture = LogCapture()
            let log = ConnectionLog(sink: capture.sink(), client: try WebSocketURL("ws://example.com:8080/"), proxy: nil)
            log.closed(WebSocketCloseInfo(code: .normalClosure, reason: end == nil ? hostile : "", wasClean: end == nil, error: end))
            let record = try XCTUnwrap(capture.records.first)
            XCTAssertEqual(HostilePeerText.rawScalars(in: record.description), [], record.description.debugDescription)
            XCTAssertFalse(record.description.contains("\n"))
        }
    }

    func testACloseReasonIsLoggedEscapedOnce() throws {
        let capture = LogCapture()
        let log = ConnectionLog(sink: capture.sink(), client: try WebSocketURL("ws://example.com:8080/"), proxy: nil)
        log.closed(WebSocketCloseInfo(code: .normalClosure, reason: "bye\r\n\\x", wasClean: true, error: nil))
        XCTAssertEqual(capture.records.first?.metadata["reason"], #"bye\r\n\\x"#)
    }

    func testASubprotocolTheServerChoseIsLoggedEscaped() throws {
        let capture = LogCapture()
        let log = ConnectionLog(sink: capture.sink(), client: try WebSocketURL("ws://example.com:8080/"), proxy: nil)
        log.opened(WebSocketHandshakeInfo(subprotocol: "chat\u{1B}[2J", headers: HTTPHeaders(), resourceName: "/"))
        XCTAssertEqual(capture.records.first?.metadata["subprotocol"], #"chat\u{1B}[2J"#)
    }
}
