import XCTest
@testable import WireKit

/// Every single-frame violation the decoder catches, with the close code it maps to.
final class WebSocketFrameDecoderErrorTests: XCTestCase {
    private func decodeError(
        _ bytes: [UInt8], _ requirement: WebSocketFrameDecoder.MaskRequirement = .either,
        maxFrameSize: Int = 1 << 20, file: StaticString = #filePath, line: UInt = #line
    ) -> WebSocketError? {
        // Whole, and byte by byte: the error must be the same.
        var errors: [WebSocketError] = []
        var decoder = WebSocketFrameDecoder(maxFrameSize: maxFrameSize, maskRequirement: requirement)
        do { _ = try decoder.decode(bytes) } catch { errors.append(error) }
        var byteDecoder = WebSocketFrameDecoder(maxFrameSize: maxFrameSize, maskRequirement: requirement)
        do { for byte in bytes { _ = try byteDecoder.decode([byte]) } } catch { errors.append(error) }
        XCTAssertEqual(errors.count, 2, "expected an error both whole and byte by byte", file: file, line: line)
        XCTAssertEqual(errors.first, errors.last, file: file, line: line)
        return errors.first
    }

    func testReservedBitsWithoutExtensionAre1002() {
        for bits: UInt8 in [0x40, 0x20, 0x10, 0x70] {
            XCTAssertEqual(decodeError([0x81 | bits, 0x00])?.closeCode, .protocolError)
            XCTAssertEqual(decodeError([0x81 | bits, 0x00]), .protocolViolation(.reservedBitsSet(bits >> 4)))
        }
    }

    func testReservedOpcodesAre1002() {
        for opcode: UInt8 in [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            XCTAssertEqual(decodeError([0x80 | opcode, 0x00])?.closeCode, .protocolError, "opcode \(opcode)")
            XCTAssertEqual(decodeError([0x80 | opcode, 0x00]), .protocolViolation(.reservedOpcode(opcode)))
        }
    }

    func testControlFrameOver125BytesIs1002() {
        XCTAssertEqual(decodeError([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126))?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x88, 0x7F, 0, 0, 0, 0, 0, 0, 0, 200])?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x88, 0x7F, 0, 0, 0, 0, 0, 0, 0, 200]), .protocolViolation(.controlFrameTooLong(.close)))
    }

    func testFragmentedControlFrameIs1002() {
        XCTAssertEqual(decodeError([0x09, 0x00])?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x08, 0x00])?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x0A, 0x00])?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x09, 0x00]), .protocolViolation(.fragmentedControlFrame(.ping)))
    }

    func test64BitLengthWithMostSignificantBitSetIs1002() {
        XCTAssertEqual(decodeError([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1])?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1]), .protocolViolation(.payloadLengthHighBitSet))
    }

    func testFrameOverLimitIs1009BeforePayloadArrives() {
        let error = decodeError([0x82, 0x7E, 0x04, 0x01], maxFrameSize: 1024)
        XCTAssertEqual(error?.closeCode, .messageTooBig)
        XCTAssertEqual(error, .messageTooBig(size: 1025, limit: 1024))
        XCTAssertEqual(decodeError([0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])?.closeCode, .messageTooBig)
    }

    func testUnmaskedFrameToServerIs1002() {
        XCTAssertEqual(decodeError([0x81, 0x00], .masked)?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x81, 0x00], .masked), .protocolViolation(.unmaskedFrameFromClient))
    }

    func testMaskedFrameToClientIs1002() {
        XCTAssertEqual(decodeError([0x81, 0x80, 1, 2, 3, 4], .unmasked)?.closeCode, .protocolError)
        XCTAssertEqual(decodeError([0x81, 0x80, 1, 2, 3, 4], .unmasked), .protocolViolation(.maskedFrameFromServer))
    }
}
