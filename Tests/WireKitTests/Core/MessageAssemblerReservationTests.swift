import Foundation
import XCTest
@testable import WireKit

/// The reassembly storage follows the bytes that arrived, not the length a frame header claims.
final class MessageAssemblerReservationTests: XCTestCase {
    private let key = WebSocketMaskingKey(0x37FA_213D)
    private let announced = 16 << 20
    /// Allocator rounding an array's capacity may add, in bytes.
    private let slack = 256

    private func header(_ opcode: WebSocketOpcode, length: Int, fin: Bool = true) -> WebSocketFrameHeader {
        WebSocketFrameHeader(fin: fin, reservedBits: 0, opcode: opcode, maskingKey: key, payloadLength: length)
    }

    /// Feeds `payload` (masked with `key` as on the wire) in slices of `sliceSize`, starting at `offset`.
    private func feed(_ assembler: inout MessageAssembler, _ payload: [UInt8], from offset: Int = 0, frameLength: Int, sliceSize: Int) throws -> WebSocketEvent?
    {
        var masked = payload
        masked.withUnsafeMutableBytes { WebSocketMasking.apply(key, to: $0, phase: offset) }
        var event: WebSocketEvent?
        var position = 0
        while position < masked.count {
            let end = min(position + sliceSize, masked.count)
            event = try masked[position..<end].withUnsafeBytes { slice in
                try assembler.receive(slice, key: key, offset: offset + position, isFrameEnd: offset + end == frameLength)
            }
            position = end
        }
        return event
    }

    func testHugeAnnouncedBinaryFrameReservesOnlyWhatArrived() throws {
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.binary, length: announced))
        XCTAssertNil(try feed(&assembler, [0x42], frameLength: announced, sliceSize: 1))
        XCTAssertGreaterThan(assembler.reservedBytes, 0)
        XCTAssertLessThanOrEqual(assembler.reservedBytes, MessageAssembler.initialReservation + slack)
    }

    func testHugeAnnouncedTextFrameReservesOnlyWhatArrived() throws {
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.text, length: announced))
        XCTAssertNil(try feed(&assembler, Array("a".utf8), frameLength: announced, sliceSize: 1))
        XCTAssertGreaterThan(assembler.reservedBytes, 0)
        XCTAssertLessThanOrEqual(assembler.reservedBytes, MessageAssembler.initialReservation + slack)
    }

    func testReservationGrowsAtMostTwiceTheReceivedBytes() throws {
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.binary, length: announced))
        let chunk = [UInt8](repeating: 7, count: 100_000)
        var received = 0
        for _ in 0..<5 {
            XCTAssertNil(try feed(&assembler, chunk, from: received, frameLength: announced, sliceSize: 30_000))
            received += chunk.count
            XCTAssertLessThanOrEqual(assembler.reservedBytes, 2 * received + slack)
        }
    }

    func testLargeBinaryMessageOverManySlicesIsDeliveredIntact() throws {
        let payload = (0..<300_001).map { (index: Int) in UInt8(truncatingIfNeeded: index &* 31) }
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.binary, length: payload.count))
        let event = try feed(&assembler, payload, frameLength: payload.count, sliceSize: 4_093)
        guard case .binary(let data)? = event else { return XCTFail("expected a binary message, got \(String(describing: event))") }
        XCTAssertEqual(data.count, payload.count)
        XCTAssertTrue(data.elementsEqual(payload))
        XCTAssertEqual(assembler.reservedBytes, 0)
    }

    func testLargeTextMessageOverManySlicesIsDeliveredIntact() throws {
        let text = String(repeating: "héllo wörld ", count: 20_000)
        let payload = Array(text.utf8)
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.text, length: payload.count))
        let event = try feed(&assembler, payload, frameLength: payload.count, sliceSize: 5_000)
        XCTAssertEqual(event, .text(text))
    }

    func testOneMiBTextMessageKeepsItsBufferSoTheNextOneNeedsNoGrowth() throws {
        let payload = [UInt8](repeating: 0x61, count: 1 << 20)
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.text, length: payload.count))
        XCTAssertEqual(try feed(&assembler, payload, frameLength: payload.count, sliceSize: 65_536)?.isText, true)
        let kept = assembler.reservedBytes
        XCTAssertGreaterThanOrEqual(kept, 1 << 20, "the buffer of a 1 MiB message is kept")
        try assembler.begin(header(.text, length: payload.count))
        XCTAssertNil(try feed(&assembler, Array(payload[..<100]), frameLength: payload.count, sliceSize: 100))
        XCTAssertEqual(assembler.reservedBytes, kept, "the next message reuses it")
    }

    func testLastFrameGrowsTheBufferNoFurtherThanTheMessageEnd() throws {
        let payload = [UInt8](repeating: 0x62, count: 100_000)
        var assembler = MessageAssembler(maxMessageSize: announced)
        try assembler.begin(header(.text, length: payload.count))
        XCTAssertNil(try feed(&assembler, Array(payload[..<99_999]), frameLength: payload.count, sliceSize: 33_333))
        // Doubling from 64 KiB would reserve 128 KiB; the frame ends at 100 000 bytes.
        XCTAssertLessThanOrEqual(assembler.reservedBytes, payload.count + slack)
    }

    func testSmallMessageOverTwoSlicesReservesItsOwnLength() throws {
        for opcode in [WebSocketOpcode.text, .binary] {
            var assembler = MessageAssembler(maxMessageSize: announced)
            let payload = Array("0123456789".utf8)
            try assembler.begin(header(opcode, length: payload.count))
            XCTAssertNil(try feed(&assembler, Array(payload[0..<4]), frameLength: payload.count, sliceSize: 4))
            XCTAssertLessThan(assembler.reservedBytes, 64, "\(opcode)")
            let event = try feed(&assembler, Array(payload[4...]), from: 4, frameLength: payload.count, sliceSize: 6)
            XCTAssertEqual(event, opcode == .text ? .text("0123456789") : .binary(Data(payload)))
        }
    }
}

extension WebSocketEvent {
    fileprivate var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
