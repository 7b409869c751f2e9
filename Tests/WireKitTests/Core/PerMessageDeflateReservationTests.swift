import Foundation
import XCTest
@testable import WireKit

/// The permessage-deflate codec keeps its buffers across messages up to a little over 1 MiB.
final class PerMessageDeflateReservationTests: XCTestCase {
    private func codec(_ role: WebSocketRole) -> PerMessageDeflate {
        PerMessageDeflate(parameters: PerMessageDeflateParameters(), role: role, options: PerMessageDeflateOptions(), maxMessageSize: 16 << 20)
    }

    /// JSON-like text of exactly `size` bytes, varied enough that it does not compress to nothing.
    private func text(_ size: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = 0
        while bytes.count < size {
            bytes += Array(#"{"name":"user\#(index % 97)","text":"message number \#(index)","ts":\#(1_700_000_000 + index * 37)},"#.utf8)
            index += 1
        }
        return Array(bytes.prefix(size))
    }

    /// Compresses `payload` with `sender` and inflates it with `receiver` (one unmasked frame).
    private func roundTrip(_ payload: [UInt8], _ sender: inout PerMessageDeflate, _ receiver: inout PerMessageDeflate) throws -> WebSocketEvent? {
        var wire: [UInt8] = []
        XCTAssertTrue(payload.withUnsafeBytes { bytes in sender.compress(bytes) { wire = Array($0) } })
        let header = WebSocketFrameHeader(fin: true, reservedBits: 0b100, opcode: .text, maskingKey: nil, payloadLength: wire.count)
        XCTAssertTrue(try receiver.begin(header, assemblerBusy: false))
        return try wire.withUnsafeBytes { try receiver.receive($0, key: nil, offset: 0, isFrameEnd: true) }
    }

    func testOneMiBCompressedMessageKeepsTheInflateBufferSoTheNextOneNeedsNoGrowth() throws {
        var client = codec(.client), server = codec(.server)
        let payload = text(1 << 20)
        XCTAssertEqual(try roundTrip(payload, &client, &server), .text(String(decoding: payload, as: UTF8.self)))
        let kept = server.reservedBytes
        XCTAssertGreaterThanOrEqual(kept, 1 << 20, "the inflated buffer of a 1 MiB message is kept")
        XCTAssertLessThanOrEqual(kept, (1 << 20) + (16 << 10), "a full buffer is not doubled when zlib has no more to give")
        XCTAssertEqual(try roundTrip(payload, &client, &server), .text(String(decoding: payload, as: UTF8.self)))
        XCTAssertEqual(server.reservedBytes, kept, "the next message reuses it")
    }

    func testMaskedMessageInflatedFromManySmallSlicesArrivesIntact() throws {
        var client = codec(.client), server = codec(.server)
        // Bytes that compress poorly, so the inflated storage grows several times mid-message.
        var seed: UInt32 = 12_345
        let payload = (0..<300_001).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: seed >> 16) & 0x3F | 0x40
        }
        var wire: [UInt8] = []
        XCTAssertTrue(payload.withUnsafeBytes { bytes in client.compress(bytes) { wire = Array($0) } })
        let key = WebSocketMaskingKey(0x1234_5678)
        wire.withUnsafeMutableBytes { WebSocketMasking.apply(key, to: $0) }
        let header = WebSocketFrameHeader(fin: true, reservedBits: 0b100, opcode: .text, maskingKey: key, payloadLength: wire.count)
        XCTAssertTrue(try server.begin(header, assemblerBusy: false))
        var event: WebSocketEvent?
        var offset = 0
        while offset < wire.count {
            let end = min(offset + 997, wire.count)
            event = try wire[offset..<end].withUnsafeBytes { try server.receive($0, key: key, offset: offset, isFrameEnd: end == wire.count) }
            offset = end
        }
        XCTAssertEqual(event, .text(String(decoding: payload, as: UTF8.self)))
    }

    func testBuffersOfAMessageFarAboveOneMiBAreReleased() throws {
        var client = codec(.client), server = codec(.server)
        let payload = text(3 << 20)
        XCTAssertEqual(try roundTrip(payload, &client, &server), .text(String(decoding: payload, as: UTF8.self)))
        XCTAssertLessThan(server.reservedBytes, 1 << 20)
    }
}
