import XCTest
@testable import WireKit

/// RFC 6455 §5.7 examples, byte for byte, in both directions.
final class WebSocketFrameCodecTests: XCTestCase {
    private let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    private func decodeAll(_ bytes: [UInt8], _ requirement: WebSocketFrameDecoder.MaskRequirement = .either) throws -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(maskRequirement: requirement)
        let frames = try decoder.decode(bytes)
        XCTAssertTrue(decoder.isAtFrameBoundary)
        return frames
    }

    func testSingleFrameUnmaskedTextHello() throws {
        let wire: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        XCTAssertEqual(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))), wire)
        XCTAssertEqual(try decodeAll(wire, .unmasked), [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
    }

    func testSingleFrameMaskedTextHello() throws {
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        let frame = WebSocketFrame(opcode: .text, maskingKey: key, payload: Array("Hello".utf8))
        XCTAssertEqual(WebSocketFrameEncoder.encode(frame), wire)
        XCTAssertEqual(try decodeAll(wire, .masked), [frame])
    }

    func testFragmentedUnmaskedTextHel_lo() throws {
        let wire: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        let frames = [
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
            WebSocketFrame(fin: true, opcode: .continuation, payload: Array("lo".utf8)),
        ]
        var encoded: [UInt8] = []
        for frame in frames { WebSocketFrameEncoder.encode(frame, into: &encoded) }
        XCTAssertEqual(encoded, wire)
        XCTAssertEqual(try decodeAll(wire), frames)
    }

    func testUnmaskedPingAndMaskedPongWithHelloBody() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        let pingFrame = WebSocketFrame(opcode: .ping, payload: Array("Hello".utf8))
        let pongFrame = WebSocketFrame(opcode: .pong, maskingKey: key, payload: Array("Hello".utf8))
        XCTAssertEqual(WebSocketFrameEncoder.encode(pingFrame), ping)
        XCTAssertEqual(WebSocketFrameEncoder.encode(pongFrame), pong)
        XCTAssertEqual(try decodeAll(ping), [pingFrame])
        XCTAssertEqual(try decodeAll(pong), [pongFrame])
    }

    func test256ByteBinaryUses16BitLength() throws {
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let wire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload))
        XCTAssertEqual(Array(wire.prefix(4)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(wire.count, 4 + 256)
        XCTAssertEqual(try decodeAll(wire), [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    func test64KiBBinaryUses64BitLength() throws {
        let payload = (0..<65536).map { (index: Int) in UInt8(truncatingIfNeeded: index &* 31) }
        let wire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload))
        XCTAssertEqual(Array(wire.prefix(10)), [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        XCTAssertEqual(wire.count, 10 + 65536)
        XCTAssertEqual(try decodeAll(wire), [WebSocketFrame(opcode: .binary, payload: payload)])
        let masked = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, maskingKey: key, payload: payload))
        XCTAssertEqual(Array(masked.prefix(14)), [0x82, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x37, 0xFA, 0x21, 0x3D])
        XCTAssertEqual(try decodeAll(masked), [WebSocketFrame(opcode: .binary, maskingKey: key, payload: payload)])
    }

    func testLengthBoundaries125And126And65535And65536() throws {
        for (count, header) in [
            (125, [0x82, 0x7D]), (126, [0x82, 0x7E, 0x00, 0x7E]), (65535, [0x82, 0x7E, 0xFF, 0xFF]),
            (65536, [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0]),
        ] as [(Int, [UInt8])] {
            let wire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: count)))
            XCTAssertEqual(Array(wire.prefix(header.count)), header, "length \(count)")
            XCTAssertEqual(try decodeAll(wire).first?.payload.count, count)
        }
    }

    func testDecoderDoesNotNeedTheAnnouncedPayloadToReportTheHeader() throws {
        var decoder = WebSocketFrameDecoder(maxFrameSize: 1 << 30, maskRequirement: .either)
        let header: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0x20, 0, 0, 0]  // 512 MiB announced, nothing sent
        XCTAssertEqual(try decoder.decode(header), [])
        XCTAssertFalse(decoder.isAtFrameBoundary)
    }

    func testMaskingWordAtATimeMatchesBytewiseAtEveryPhaseAndLength() {
        let key = WebSocketMaskingKey(0xDEAD_BEEF)
        for length in 0..<70 {
            for phase in 0..<4 {
                let source = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
                let expected = source.enumerated().map { $0.element ^ key[phase + $0.offset] }
                var inPlace = source
                inPlace.withUnsafeMutableBytes { WebSocketMasking.apply(key, to: $0, phase: phase) }
                XCTAssertEqual(inPlace, expected, "in place, length \(length) phase \(phase)")
                var copied = [UInt8](repeating: 0, count: length)
                source.withUnsafeBytes { src in copied.withUnsafeMutableBytes { WebSocketMasking.copy(src, to: $0, key: key, phase: phase) } }
                XCTAssertEqual(copied, expected, "copy, length \(length) phase \(phase)")
            }
        }
    }

    func testRandomMaskingKeysDiffer() {
        let keys = Set((0..<64).map { _ in WebSocketMaskingKey.random() })
        XCTAssertGreaterThan(keys.count, 60)
    }
}

final class WebSocketMaskingKeySourceTests: XCTestCase {
    func testChaCha20BlockMatchesRFC8439Section2_3_2() {
        // Key bytes 00 01 02 ... 1f, as little-endian words.
        let key: [UInt32] = [0x0302_0100, 0x0706_0504, 0x0B0A_0908, 0x0F0E_0D0C, 0x1312_1110, 0x1716_1514, 0x1B1A_1918, 0x1F1E_1D1C]
        let words = WebSocketMaskingKeySource.block(key: key, counter: 1, nonce: (0x0900_0000, 0x4A00_0000, 0))
        let bytes = words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        let expected = "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
        XCTAssertEqual(bytes.map { String(format: "%02x", $0) }.joined(), expected)
    }

    func testKeysDoNotRepeatAcrossRefillsAndSourcesDiffer() {
        var a = WebSocketMaskingKeySource(), b = WebSocketMaskingKeySource()
        let keysA = (0..<1000).map { _ in a.next() }
        let keysB = (0..<1000).map { _ in b.next() }
        XCTAssertGreaterThan(Set(keysA).count, 990)
        XCTAssertLessThan(Set(keysA).intersection(Set(keysB)).count, 5)
    }
}
