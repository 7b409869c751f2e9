import XCTest
@testable import WireKit

/// The meaning of a failure is in its case: each protocol-violation reason fails the connection
/// with 1002, each timeout kind with 1006, and both read well in a log.
final class WebSocketErrorReasonTests: XCTestCase {
    func testEveryProtocolViolationReasonMapsTo1002() {
        let reasons: [WebSocketProtocolViolation] = [
            .continuationWithoutMessage, .interleavedDataFrame(opcode: .text, unfinished: .binary),
            .payloadLengthHighBitSet, .reservedBitsSet(0b100), .reservedOpcode(0x3), .fragmentedControlFrame(.ping),
            .controlFrameTooLong(.close), .unmaskedFrameFromClient, .maskedFrameFromServer, .oneByteClosePayload,
            .invalidCloseCode(1005),
        ]
        XCTAssertEqual(Set(reasons.map(\.description)).count, reasons.count, "each reason reads differently")
        for reason in reasons {
            let error = WebSocketError.protocolViolation(reason)
            XCTAssertEqual(error.closeCode, .protocolError, "\(reason)")
            XCTAssertTrue(error.description.hasSuffix(reason.description))
        }
    }

    func testEveryTimeoutKindNamesItsLimitAndMapsTo1006() {
        let timeouts: [WebSocketTimeout] = [
            .handshake(limit: .seconds(3)), .closingHandshake(limit: .seconds(5)),
            .keepalive(limit: .seconds(7)), .pong(limit: .seconds(9)),
        ]
        for (timeout, seconds) in zip(timeouts, [3, 5, 7, 9]) {
            let error = WebSocketError.timedOut(timeout)
            XCTAssertEqual(error.closeCode, .abnormalClosure, "\(timeout)")
            XCTAssertTrue(error.description.contains("\(seconds).0 seconds"), error.description)
        }
        XCTAssertNotEqual(WebSocketError.timedOut(.handshake(limit: .seconds(1))), .timedOut(.keepalive(limit: .seconds(1))))
    }

}
