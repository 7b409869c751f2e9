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
        XCTAssertEqual(try roundTrip(payload, &client, &server), .text(String(decoding: payload, as: UTF8.self)))
        XCTAssertEqual(server.reservedBytes, kept, "the next message reuses it")
    }

    func testBuffersOfAMessageFarAboveOneMiBAreReleased() throws {
        var client = codec(.client), server = codec(.server)
        let payload = text(3 << 20)
        XCTAssertEqual(try roundTrip(payload, &client, &server), .text(String(decoding: payload, as: UTF8.self)))
        XCTAssertLessThan(server.reservedBytes, 1 << 20)
    }
}
