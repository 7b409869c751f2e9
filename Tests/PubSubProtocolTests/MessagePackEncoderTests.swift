import Foundation
import PubSubProtocol
import XCTest

/// The encoder makes msgpack-lite 0.1.26's choices (sc-codec-min-bin 3.0.0), format by format.
final class MessagePackEncoderTests: XCTestCase {
    private func bytes(_ value: JSONValue) throws -> [UInt8] {
        try value.messagePackBytes()
    }

    private func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    func testScalarsUseTheirOneByteForms() throws {
        XCTAssertEqual(try bytes(.null), [0xC0])
        XCTAssertEqual(try bytes(.bool(false)), [0xC2])
        XCTAssertEqual(try bytes(.bool(true)), [0xC3])
    }

    func testIntegersInTheInt32RangeUseTheSmallestFormat() throws {
        let cases: [(Int64, String)] = [
            (0, "00"), (127, "7f"), (128, "cc80"), (200, "ccc8"), (255, "ccff"), (256, "cd0100"),
            (20000, "cd4e20"), (65535, "cdffff"), (65536, "ce00010000"), (2_147_483_647, "ce7fffffff"),
            (-1, "ff"), (-32, "e0"), (-33, "d0df"), (-128, "d080"), (-129, "d1ff7f"), (-32768, "d18000"),
            (-32769, "d2ffff7fff"), (-2_147_483_648, "d280000000"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(try bytes(.int(value)), hex(expected), "\(value)")
        }
    }

    func testIntegersOutsideInt32AreFloat64LikeJavaScriptNumbers() throws {
        // msgpack-lite tests `value | 0`: anything outside 32 bits is written as float 64.
        XCTAssertEqual(try bytes(.int(2_147_483_648)), hex("cb41e0000000000000"))
        XCTAssertEqual(try bytes(.int(4_294_967_295)), hex("cb41efffffffe00000"))
        XCTAssertEqual(try bytes(.int(-2_147_483_649)), hex("cbc1e0000000200000"))
        XCTAssertEqual(try bytes(.int(1 << 53)), hex("cb4340000000000000"))
    }

    func testIntegersBeyondTwoToThe53KeepTheirExactValue() throws {
        XCTAssertEqual(try bytes(.int((1 << 53) + 1)), hex("cf0020000000000001"))
        XCTAssertEqual(try bytes(.int(Int64.max)), hex("cf7fffffffffffffff"))
        XCTAssertEqual(try bytes(.int(-(1 << 53) - 1)), hex("d3ffdfffffffffffff"))
        XCTAssertEqual(try bytes(.int(Int64.min)), hex("d38000000000000000"))
    }

    func testDoublesAreFloat64UnlessIntegralInTheInt32Range() throws {
        XCTAssertEqual(try bytes(.double(1.5)), hex("cb3ff8000000000000"))
        XCTAssertEqual(try bytes(.double(-0.1)), hex("cbbfb999999999999a"))
        XCTAssertEqual(try bytes(.double(3.0)), [0x03])
        XCTAssertEqual(try bytes(.double(-0.0)), [0x00], "JavaScript: -0 | 0 === 0 and -0 === 0")
        XCTAssertEqual(try bytes(.double(300.0)), hex("cd012c"))
        XCTAssertEqual(try bytes(.double(2_147_483_648.0)), hex("cb41e0000000000000"))
        XCTAssertEqual(try bytes(.double(.infinity)), hex("cb7ff0000000000000"))
        XCTAssertEqual(try bytes(.double(1e300)), hex("cb7e37e43c8800759c"))
    }

    func testStringsSwitchFormatAt32And256And65536UTF8Bytes() throws {
        for (length, header) in [(0, "a0"), (31, "bf"), (32, "d920"), (255, "d9ff"), (256, "da0100"), (65535, "daffff"), (65536, "db00010000")] {
            let string = String(repeating: "x", count: length)
            XCTAssertEqual(try bytes(.string(string)), hex(header) + Array(string.utf8), "\(length)")
        }
        // UTF-8 length, not characters: 16 × "é" is 32 bytes.
        XCTAssertEqual(Array(try bytes(.string(String(repeating: "é", count: 16))).prefix(2)), hex("d920"))
    }

    func testArraysAndMapsSwitchFormatAt16And65536Elements() throws {
        for (count, header) in [(0, "90"), (15, "9f"), (16, "dc0010"), (65535, "dcffff"), (65536, "dd00010000")] {
            let encoded = try bytes(.array(Array(repeating: .null, count: count)))
            XCTAssertEqual(Array(encoded.prefix(header.count / 2)), hex(header), "\(count)")
            XCTAssertEqual(encoded.count, header.count / 2 + count)
        }
        for (count, header) in [(0, "80"), (15, "8f"), (16, "de0010"), (65536, "df00010000")] {
            let members = Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", JSONValue.null) })
            XCTAssertEqual(Array(try bytes(.object(members)).prefix(header.count / 2)), hex(header), "\(count)")
        }
    }

    func testObjectKeysAreSortedUnlessLeadingKeysAreGiven() throws {
        let members: [String: JSONValue] = ["pingTimeout": 20000, "id": "a", "isAuthenticated": false]
        XCTAssertEqual(try bytes(.object(members)), hex("83 a26964 a161 af697341757468656e74696361746564 c2 ab70696e6754696d656f7574 cd4e20"))
        var encoder = MessagePackEncoder()
        try encoder.encodeObject(members, leadingKeys: ["id", "pingTimeout", "absent"])
        XCTAssertEqual(encoder.bytes, hex("83 a26964 a161 ab70696e6754696d656f7574 cd4e20 af697341757468656e74696361746564 c2"))
    }

    func testHeadersAndMembersWrittenOneByOneMakeThePacketAJavaScriptPeerWrites() throws {
        // {"e":["#handshake",{"authToken":null},1]}, the first frame of every min-bin recording.
        var encoder = MessagePackEncoder()
        try encoder.encodeMapHeader(count: 1)
        try encoder.encodeString("e")
        try encoder.encodeArrayHeader(count: 3)
        try encoder.encodeString("#handshake")
        try encoder.encode(["authToken": nil])
        encoder.encodeInteger(1)
        XCTAssertEqual(encoder.bytes, Array(Data(base64Encoded: "gaFlk6ojaGFuZHNoYWtlgalhdXRoVG9rZW7AAQ==") ?? Data()))
        encoder.removeAll()
        XCTAssertEqual(encoder.bytes, [])
    }

    func testTheBinaryWrapperIsWrittenAsBin() throws {
        let payload = Data([0x00, 0x01, 0x02, 0x7F, 0x80, 0xFD, 0xFE, 0xFF])
        XCTAssertEqual(try bytes(.binary(payload)), hex("c408 0001027f80fdfeff"))
        XCTAssertEqual(try bytes(.binary(Data())), hex("c400"))
        XCTAssertEqual(Array(try bytes(.binary(Data(count: 254))).prefix(2)), hex("c4fe"))
        // msgpack-lite 0.1.26 writes bin 8 only for `length < 0xFF`.
        XCTAssertEqual(Array(try bytes(.binary(Data(count: 255))).prefix(3)), hex("c500ff"))
        XCTAssertEqual(Array(try bytes(.binary(Data(count: 256))).prefix(3)), hex("c50100"))
        XCTAssertEqual(Array(try bytes(.binary(Data(count: 65536))).prefix(5)), hex("c600010000"))
        var encoder = MessagePackEncoder()
        try encoder.encodeBinary([1, 2])
        XCTAssertEqual(encoder.bytes, hex("c4020102"))
    }

    func testObjectsThatOnlyLookLikeTheBinaryWrapperStayMaps() throws {
        let notCanonical: JSONValue = ["base64": true, "data": "AAE"]  // padding missing
        let notBase64: JSONValue = ["base64": true, "data": "!!"]
        let falseFlag: JSONValue = ["base64": false, "data": "AAE="]
        let extraMember: JSONValue = ["base64": true, "data": "AAE=", "x": 1]
        for value in [notCanonical, notBase64, falseFlag, extraMember] {
            let encoded = try bytes(value)
            XCTAssertEqual(encoded.first.map { $0 & 0xF0 }, 0x80, "\(value)")
            XCTAssertEqual(try JSONValue(messagePack: encoded), value)
        }
    }

    func testLengthsBeyond32BitsAreATypedError() {
        var encoder = MessagePackEncoder()
        XCTAssertThrowsError(try encoder.encodeArrayHeader(count: 1 << 32)) { error in
            XCTAssertEqual(error as? MessagePackEncodingError, MessagePackEncodingError(.lengthNotRepresentable(1 << 32)))
            XCTAssertEqual("\(error)", "Cannot encode MessagePack: length 4294967296 does not fit in 32 bits")
        }
        XCTAssertThrowsError(try encoder.encodeMapHeader(count: -1))
        XCTAssertEqual(encoder.bytes, [], "nothing is written for a header that cannot be")
    }
}
