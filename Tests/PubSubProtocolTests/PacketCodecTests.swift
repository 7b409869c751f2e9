import Foundation
import PubSubProtocol
import XCTest

/// The built-in codecs: JSON writes exactly the serializer's bytes; min-bin compresses and
/// expands the packet keys as `sc-codec-min-bin` 3.0.0 does.
final class PacketCodecTests: XCTestCase {
    static let packets: [Packet] = [
        .transmit(event: "tick", data: nil),
        .transmit(event: "tick", data: ["n": 1]),
        .invoke(event: "echo", data: ["hello": "world"], cid: 2),
        .invoke(event: "#publish", data: ["channel": "news", "data": "hi"], cid: 3),
        .transmit(event: "#publish", data: ["channel": "news", "data": .binary(Data([0, 255]))]),
        .response(rid: 2, result: .success(nil)),
        .response(rid: 2, result: .success(["x": [1, 2.5, nil]])),
        .response(rid: 4, result: .failure(RemoteError(name: "FailError", message: "boom", fields: ["code": 42]))),
    ]

    private func decode(_ codec: some PacketCodec, _ bytes: [UInt8], kind: PacketMessageKind) throws -> [InboundPacket]? {
        try bytes.withUnsafeBufferPointer { try codec.decode($0, kind: kind, maximumValues: .max) }
    }

    func testJSONCodecWritesTheSerializersBytes() {
        for packet in Self.packets {
            XCTAssertEqual(JSONPacketCodec().encode(packet, keyOrder: .server), packet.serializedBytes(keyOrder: .server))
            XCTAssertEqual(JSONPacketCodec().encode(packet, keyOrder: .client), packet.serializedBytes(keyOrder: .client))
        }
        XCTAssertEqual(JSONPacketCodec().messageKind, .text)
    }

    func testMinBinShortForms() {
        func hex(_ packet: Packet) -> String {
            MinBinPacketCodec().encode(packet, keyOrder: .client).map { String(format: "%02x", $0) }.joined()
        }
        XCTAssertEqual(hex(.transmit(event: "tick", data: nil)), "81a16592a47469636bc0")
        XCTAssertEqual(hex(.transmit(event: "#publish", data: ["channel": "news", "data": "second"])), "81a17092a46e657773a67365636f6e64")
        XCTAssertEqual(hex(.response(rid: 2, result: .success(nil))), "81a1729302c0c0")
        XCTAssertEqual(hex(.transmit(event: "#publish", data: nil)), "81a16592a8237075626c697368c0", "#publish without data is an event")
    }

    func testMinBinRoundTripsEveryPacketShape() throws {
        for packet in Self.packets {
            let bytes = MinBinPacketCodec().encode(packet, keyOrder: .client)
            let decoded = try XCTUnwrap(decode(MinBinPacketCodec(), bytes, kind: .binary))
            XCTAssertEqual(decoded.map(\.packet), [packet])
        }
        let batch = MinBinPacketCodec().encodeBatch(Self.packets.map { MinBinPacketCodec().encode($0, keyOrder: .server) })
        XCTAssertEqual(try decode(MinBinPacketCodec(), batch, kind: .binary)?.map(\.packet), Self.packets)
    }

    func testMinBinReadsTheLongFormAndShortArrays() throws {
        let long = try JSONValue.object(["event": "echo", "data": "x", "cid": 5]).messagePackBytes()
        XCTAssertEqual(try decode(MinBinPacketCodec(), long, kind: .binary)?.map(\.packet), [.invoke(event: "echo", data: "x", cid: 5)])
        let short = try JSONValue.object(["e": ["echo"]]).messagePackBytes()
        XCTAssertEqual(try decode(MinBinPacketCodec(), short, kind: .binary)?.map(\.packet), [.transmit(event: "echo", data: nil)])
    }

    func testMinBinNeverDecodesTextAndStopsAtTheValueLimit() throws {
        XCTAssertNil(try decode(MinBinPacketCodec(), Array(#"{"event":"echo"}"#.utf8), kind: .text))
        XCTAssertNil(try decode(MinBinPacketCodec(), [0xC1], kind: .binary), "not MessagePack: a raw message")
        let many = MinBinPacketCodec().encode(.transmit(event: "x", data: .array(Array(repeating: 1, count: 100))), keyOrder: .client)
        XCTAssertNotNil(try decode(MinBinPacketCodec(), many, kind: .binary))
        XCTAssertThrowsError(try limited(many)) { error in
            XCTAssertEqual((error as? PacketDecodingError)?.reason, .tooManyValues(limit: 50))
        }
    }

    private func limited(_ bytes: [UInt8]) throws {
        _ = try bytes.withUnsafeBufferPointer { try MinBinPacketCodec().decode($0, kind: .binary, maximumValues: 50) }
    }
}
