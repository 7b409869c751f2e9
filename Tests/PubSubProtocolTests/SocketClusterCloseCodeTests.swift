import XCTest
import PubSubProtocol

/// Protocol.md §11 close-code texts and reconnect classes.
final class SocketClusterCloseCodeTests: XCTestCase {
    /// The one place the reconnect rule is tested: every named code once, plus the ranges.
    func testEveryNamedCodeHasItsReconnectRule() {
        let rules: [(SocketClusterCloseCode, SocketClusterCloseCode.Reconnect)] = [
            (.normal, .never), (.goingAway, .withBackoff), (.protocolError, .withBackoff),
            (.unsupportedData, .withBackoff), (.noStatusReceived, .immediately), (.abnormalClosure, .withBackoff),
            (.invalidFramePayloadData, .withBackoff), (.policyViolation, .withBackoff), (.messageTooBig, .withBackoff),
            (.mandatoryExtension, .withBackoff), (.internalServerError, .withBackoff),
            (.serverPingTimedOut, .immediately), (.clientPongTimedOut, .immediately),
            (.authTokenSigningFailed, .withBackoff), (.handshakeFailed, .withBackoff), (.authTokenSaveFailed, .withBackoff),
            (.handshakeTimedOut, .withBackoff), (.brokerBindFailed, .withBackoff), (.connectTimedOut, .withBackoff),
            (.handshakeRejected, .withBackoff), (.messageBeforeHandshake, .withBackoff),
        ]
        for (code, rule) in rules { XCTAssertEqual(code.reconnect, rule, "\(code)") }
    }

    func testReconnectClasses() {
        for code: UInt16 in [4000, 4001, 1005] {
            XCTAssertEqual(SocketClusterCloseCode(code).reconnect, .immediately, "\(code)")
        }
        for code: UInt16 in [1000, 4500, 4501, 4999, 65535] {
            XCTAssertEqual(SocketClusterCloseCode(code).reconnect, .never, "\(code)")
        }
        for code: UInt16 in [1001, 1002, 1006, 1011, 4002, 4003, 4005, 4007, 4008, 4009, 4100, 4321, 4499] {
            XCTAssertEqual(SocketClusterCloseCode(code).reconnect, .withBackoff, "\(code)")
        }
    }

    func testStandardTexts() {
        XCTAssertNil(SocketClusterCloseCode.normal.standardText)
        XCTAssertEqual(SocketClusterCloseCode.goingAway.standardText, "Socket was disconnected")
        XCTAssertEqual(SocketClusterCloseCode.abnormalClosure.standardText, "Socket hung up")
        XCTAssertEqual(SocketClusterCloseCode.serverPingTimedOut.standardText, "Server ping timed out")
        XCTAssertEqual(SocketClusterCloseCode.clientPongTimedOut.standardText, "Client pong timed out")
        XCTAssertEqual(SocketClusterCloseCode.handshakeTimedOut.standardText, "Did not receive #handshake from client before timeout")
        XCTAssertEqual(SocketClusterCloseCode.messageBeforeHandshake.standardText, "Server received a message before the client handshake")
        XCTAssertNil(SocketClusterCloseCode(4321).standardText)
        for code: UInt16 in [1001, 1002, 1003, 1005, 1006, 1007, 1008, 1009, 1010, 1011] + Array(4000...4009) {
            XCTAssertNotNil(SocketClusterCloseCode(code).standardText, "\(code)")
        }
    }

    func testErrorMessagesAndReasons() {
        XCTAssertEqual(SocketClusterCloseCode(4000).errorMessage(reason: nil), "Server ping timed out")
        XCTAssertEqual(SocketClusterCloseCode(4321).errorMessage(reason: "asked"), "Socket connection closed with status code 4321 and reason: asked")
        XCTAssertEqual(SocketClusterCloseCode(4321).errorMessage(reason: ""), "Socket connection closed with status code 4321")
        XCTAssertEqual(SocketClusterCloseCode(4000).reportedReason(""), "Server ping timed out")
        XCTAssertEqual(SocketClusterCloseCode(4321).reportedReason("asked"), "asked")
        XCTAssertNil(SocketClusterCloseCode(1000).reportedReason(nil))
        XCTAssertFalse(SocketClusterCloseCode.normal.isError)
        XCTAssertFalse(SocketClusterCloseCode.goingAway.isError)
        XCTAssertTrue(SocketClusterCloseCode.noStatusReceived.isError)
    }

    func testRecordedServerCloseCodes() throws {
        var seen: Set<UInt16> = []
        for file in try RecordedFrame.allFiles() {
            for frame in try RecordedFrame.load(file) {
                if let code = frame.closeCode { seen.insert(UInt16(code)) }
            }
        }
        XCTAssertEqual(seen, [1000, 4001, 4005, 4008, 4009, 4321])
        XCTAssertEqual(SocketClusterCloseCode(4321).reconnect, .withBackoff)
    }
}
