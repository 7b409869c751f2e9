import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// Every way a peer can break RFC 6455 after the handshake, with the close code it earns.
final class WebSocketStateMachineErrorTests: XCTestCase {
    /// Feeds `bytes` to an open server (masked peer frames) or client (unmasked), then checks
    /// that the connection failed with `code`: a close frame with that code went out, `closed`
    /// reports it (not clean) and the transport should close.
    @discardableResult
    private func assertFails(
        role: WebSocketRole, _ bytes: [UInt8], with code: WebSocketCloseCode,
        error expected: WebSocketError? = nil,
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [WebSocketEvent] {
        var machine = role == .server ? openServer(configuration: configuration) : try openClient(configuration: configuration)
        _ = machine.drainEvents()
        _ = machine.takeOutput()
        machine.receive(bytes, now: ManualClock().now)
        let events = machine.drainEvents()
        guard case .closed(let info)? = events.last else {
            XCTFail("expected closed, got \(events)", file: file, line: line)
            return events
        }
        XCTAssertEqual(info.code, code, "\(info)", file: file, line: line)
        XCTAssertFalse(info.wasClean, file: file, line: line)
        XCTAssertNotNil(info.error, file: file, line: line)
        XCTAssertEqual(info.error?.closeCode, code, file: file, line: line)
        if let expected { XCTAssertEqual(info.error, expected, file: file, line: line) }
        XCTAssertTrue(machine.wantsTransportClosed, file: file, line: line)
        let frames = machine.drainFrames(file: file, line: line)
        XCTAssertEqual(frames.count, 1, "exactly one close frame", file: file, line: line)
        XCTAssertEqual(frames.last?.opcode, .close, file: file, line: line)
        XCTAssertEqual(frames.last?.payload.prefix(2).map { $0 }, closePayload(code.rawValue), file: file, line: line)
        XCTAssertEqual(frames.last?.maskingKey != nil, role == .client, "clients mask, servers do not", file: file, line: line)
        // Nothing more is accepted or reported.
        machine.receive(wireFrame(.text, "late", masked: role == .server), now: ManualClock().now)
        machine.transportClosed(now: ManualClock().now)
        XCTAssertNil(machine.nextEvent(), "closed is reported exactly once", file: file, line: line)
        return events
    }

    func testReservedBitsFailWith1002() throws {
        try assertFails(role: .server, wireFrame(.text, Array("x".utf8), masked: true, reservedBits: 0b100), with: .protocolError)
        try assertFails(role: .client, wireFrame(.text, Array("x".utf8), masked: false, reservedBits: 0b001), with: .protocolError)
    }

    func testReservedOpcodeFailsWith1002() throws {
        try assertFails(role: .server, [0x83, 0x80, 1, 2, 3, 4], with: .protocolError)
        try assertFails(role: .client, [0x8B, 0x00], with: .protocolError)
    }

    func testControlFrameOver125BytesFailsWith1002() throws {
        try assertFails(role: .client, [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), with: .protocolError)
    }

    func testFragmentedControlFrameFailsWith1002() throws {
        try assertFails(role: .client, wireFrame(.ping, [1], fin: false, masked: false), with: .protocolError)
    }

    func testContinuationWithoutStartFailsWith1002() throws {
        try assertFails(
            role: .server, wireFrame(.continuation, "x", masked: true), with: .protocolError,
            error: .protocolViolation(.continuationWithoutMessage))
    }

    func testNewDataFrameInsideFragmentedMessageFailsWith1002() throws {
        try assertFails(
            role: .client, wireFrame(.text, "a", fin: false, masked: false) + wireFrame(.binary, [1], masked: false), with: .protocolError,
            error: .protocolViolation(.interleavedDataFrame(opcode: .binary, unfinished: .text)))
        try assertFails(
            role: .client, wireFrame(.binary, [1], fin: false, masked: false) + wireFrame(.text, "a", fin: false, masked: false), with: .protocolError)
    }

    func testInvalidUTF8InSingleFrameFailsWith1007() throws {
        try assertFails(role: .server, wireFrame(.text, [0x48, 0xC0, 0xAF], masked: true), with: .invalidFramePayloadData)
        try assertFails(role: .client, wireFrame(.text, [0xED, 0xA0, 0x80], masked: false), with: .invalidFramePayloadData)
        try assertFails(role: .client, wireFrame(.text, [0x41, 0xE2, 0x82], masked: false), with: .invalidFramePayloadData)
    }

    func testInvalidUTF8AcrossFragmentsFailsFastBeforeTheMessageEnds() throws {
        // "κόσμε" split inside a code point, then an invalid byte in the second fragment; the
        // final fragment never arrives, the failure must not wait for it.
        let good = Array("κόσμε".utf8)
        let first = wireFrame(.text, Array(good.prefix(3)), fin: false, masked: false)
        let second = wireFrame(.continuation, Array(good[3...]) + [0xF4, 0x90, 0x80, 0x80], fin: false, masked: false)
        let events = try assertFails(role: .client, first + second, with: .invalidFramePayloadData)
        guard case .closed(let info)? = events.last, let error = info.error, error.code == .invalidUTF8 else { return XCTFail("\(events)") }
        XCTAssertTrue(error.message.contains("byte \(good.count + 1)"), error.message)
    }

    func testInvalidUTF8InsideAPartiallyReceivedFrameFailsBeforeTheRestArrives() throws {
        // A 1000-byte text frame whose first 10 bytes arrive, with a bad byte at offset 5.
        let header: [UInt8] = [0x81, 0x7E, 0x03, 0xE8]
        try assertFails(role: .client, header + Array("abcde".utf8) + [0xFF] + Array("fghi".utf8), with: .invalidFramePayloadData)
    }

    func testFrameOverLimitFailsWith1009FromTheHeaderAlone() throws {
        let configuration = configured(WebSocketConfiguration()) {
            $0.maxFrameSize = 1000; $0.maxMessageSize = 4000
        }
        try assertFails(role: .client, [0x82, 0x7E, 0x03, 0xE9], with: .messageTooBig, configuration: configuration)
        try assertFails(role: .client, [0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], with: .messageTooBig, configuration: configuration)
    }

    func testMessageOverLimitAcrossFragmentsFailsWith1009() throws {
        let configuration = configured(WebSocketConfiguration()) {
            $0.maxFrameSize = 1000; $0.maxMessageSize = 1500
        }
        let bytes =
            wireFrame(.binary, [UInt8](repeating: 1, count: 1000), fin: false, masked: false)
            + wireFrame(.continuation, [UInt8](repeating: 1, count: 501), fin: true, masked: false)
        try assertFails(role: .client, bytes, with: .messageTooBig, configuration: configuration)
    }

    func testSixtyFourBitLengthWithTopBitFailsWith1002() throws {
        try assertFails(role: .client, [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], with: .protocolError)
    }

    func testInvalidReceivedCloseCodesFailWith1002() throws {
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            try assertFails(
                role: .client, wireFrame(.close, closePayload(code), masked: false), with: .protocolError,
                error: .protocolViolation(.invalidCloseCode(code)))
        }
    }

    func testValidReceivedCloseCodesAreEchoed() throws {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] {
            var machine = try openClient()
            _ = machine.drainEvents()
            machine.receive(wireFrame(.close, closePayload(code), masked: false), now: ManualClock().now)
            XCTAssertEqual(machine.drainEvents(), [.closed(WebSocketCloseInfo(code: WebSocketCloseCode(code), reason: "", wasClean: true, error: nil))])
            XCTAssertEqual(machine.drainFrames().map(\.payload), [closePayload(code)])
        }
    }

    func testOneByteClosePayloadFailsWith1002() throws {
        try assertFails(
            role: .server, wireFrame(.close, [0x03], masked: true), with: .protocolError,
            error: .protocolViolation(.oneByteClosePayload))
    }

    func testNonUTF8CloseReasonFailsWith1007() throws {
        try assertFails(role: .server, wireFrame(.close, closePayload(1000, [0xCE, 0xBA, 0xFF]), masked: true), with: .invalidFramePayloadData)
    }

    func testUnmaskedFrameToServerFailsWith1002() throws {
        try assertFails(role: .server, wireFrame(.text, "x", masked: false), with: .protocolError)
    }

    func testMaskedFrameToClientFailsWith1002() throws {
        try assertFails(role: .client, wireFrame(.text, "x", masked: true), with: .protocolError)
    }

    func testMessagesBeforeAnErrorInTheSameReadAreDelivered() throws {
        let events = try assertFails(role: .client, wireFrame(.text, "ok", masked: false) + [0x83, 0x00], with: .protocolError)
        XCTAssertEqual(events.first, .text("ok"))
    }
}
