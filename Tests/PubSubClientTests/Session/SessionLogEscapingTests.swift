import TestSupport
import XCTest
@testable import PubSubClient

/// The server's text reaches the session's log records escaped.
final class SessionLogEscapingTests: XCTestCase {
    func testACloseReasonAndARemoteErrorAreLoggedEscaped() {
        let capture = LogCapture()
        var log = SessionLog(sink: capture.sink(), server: "127.0.0.1:8000")
        log.record(.disconnected(.init(code: 4008, reason: "bye\u{1B}[2J\r\nforged")))
        log.record(.error(.handshakeRejected(RemoteError(name: "E\u{202E}", message: "no\nway"), code: 4008)))
        XCTAssertEqual(capture.records.map { $0.metadata["reason"] ?? $0.metadata["error"] }, [#"bye\u{1B}[2J\r\nforged"#, #"E\u{202E}: no\nway"#])
        for record in capture.records { XCTAssertEqual(HostilePeerText.rawScalars(in: record.description), []) }
    }
}
