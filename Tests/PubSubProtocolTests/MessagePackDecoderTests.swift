import Foundation
import PubSubProtocol
import XCTest

/// Every MessagePack format decodes to the JSON value a JavaScript peer would see; hostile input
/// fails with a typed error before anything is allocated from an announced length.
final class MessagePackDecoderTests: XCTestCase {
    private func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    private func decode(_ text: String) throws -> JSONValue {
        try JSONValue(messagePack: hex(text))
    }

    private func reason(_ bytes: [UInt8], _ decoder: MessagePackDecoder = MessagePackDecoder()) -> MessagePackDecodingError.Reason? {
        do {
            _ = try decoder.decode(bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    func testEveryNumberFormatIsANumber() throws {
        let cases: [(String, JSONValue)] = [
            ("00", 0), ("7f", 127), ("ff", -1), ("e0", -32), ("cc80", 128), ("cdffff", 65535),
            ("ceffffffff", 4_294_967_295), ("cf7fffffffffffffff", .int(Int64.max)), ("d080", -128),
            ("d18000", -32768), ("d280000000", -2_147_483_648), ("d38000000000000000", .int(Int64.min)),
            ("cb3ff8000000000000", 1.5), ("ca3fc00000", 1.5), ("ca40400000", 3), ("cb41e0000000000000", 2_147_483_648),
            ("cb8000000000000000", 0), ("cfffffffffffffffff", .double(18_446_744_073_709_551_616)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try decode(text), expected, text)
        }
        guard case .double(let nan) = try decode("cb7ff8000000000000") else { return XCTFail("NaN is a double") }
        XCTAssertTrue(nan.isNaN)
    }

    func testStringsBinsArraysAndMapsInEveryLengthFormat() throws {
        XCTAssertEqual(try decode("a3 616263"), "abc")
        XCTAssertEqual(try decode("d903 616263"), "abc")
        XCTAssertEqual(try decode("da0003 616263"), "abc")
        XCTAssertEqual(try decode("db00000003 616263"), "abc")
        XCTAssertEqual(try decode("a5 c3a9e282ac"), "é€")
        XCTAssertEqual(try decode("c402 0001"), .binary(Data([0, 1])))
        XCTAssertEqual(try decode("c50002 0001"), .binary(Data([0, 1])))
        XCTAssertEqual(try decode("c600000002 0001"), .binary(Data([0, 1])))
        XCTAssertEqual(try decode("92 c0 c3"), [nil, true])
        XCTAssertEqual(try decode("dc0002 c0 c2"), [nil, false])
        XCTAssertEqual(try decode("dd00000002 01 02"), [1, 2])
        XCTAssertEqual(try decode("82 a161 01 a162 90"), ["a": 1, "b": []])
        XCTAssertEqual(try decode("de0001 a161 80"), ["a": [:]])
        XCTAssertEqual(try decode("df00000001 a161 c0"), ["a": nil])
        XCTAssertEqual(try decode("82 a161 01 a161 02"), ["a": 2], "a repeated key keeps the last value")
    }

    func testABinDecodesToTheWrapperItsBytesComeBackFrom() throws {
        let value = try decode("c408 0001027f80fdfeff")
        XCTAssertEqual(value.binaryData, Data([0x00, 0x01, 0x02, 0x7F, 0x80, 0xFD, 0xFE, 0xFF]))
        XCTAssertEqual(value, ["base64": true, "data": "AAECf4D9/v8="])
    }

    func testEmptyInputAndTrailingBytesAreRejected() {
        XCTAssertEqual(reason([]), .emptyInput)
        // A protocol-1 pong sent in a binary frame (raw-minbin-binary-pong.proto1): msgpack-lite
        // reads 35 and ignores the rest; a frame must hold exactly one value here.
        XCTAssertEqual(reason(Array("#2".utf8)), .trailingBytes(count: 1))
        XCTAssertEqual(reason(hex("c0 c0")), .trailingBytes(count: 1))
    }

    func testEveryTruncationOfAValidDocumentIsATypedError() throws {
        let value: JSONValue = [
            "s": .string(String(repeating: "y", count: 40)), "n": .int(70000), "d": 1.25, "b": .binary(Data(count: 300)),
            "a": .array([.int(-200), .int(-40000), .int(1 << 40), .int(Int64.max), "x"]),
        ]
        let document = try value.messagePackBytes()
        for length in 0..<document.count {
            switch reason(Array(document[..<length])) {
            case .emptyInput?, .unexpectedEndOfInput?, .lengthExceedsInput?: break
            case let other: XCTFail("prefix of \(length) bytes: \(String(describing: other))")
            }
        }
        XCTAssertNil(reason(document))
    }

    func testHugeAnnouncedLengthsFailWithoutAllocating() {
        let cases: [(String, Int)] = [
            ("dbffffffff", 4_294_967_295), ("c6ffffffff", 4_294_967_295), ("ddffffffff 00", 4_294_967_295),
            ("dfffffffff a1", 4_294_967_295), ("daffff 61", 65535), ("dcffff", 65535), ("9f 00", 15), ("8f a0", 15),
        ]
        for (text, announced) in cases {
            guard case .lengthExceedsInput(let got, _)? = reason(hex(text)) else {
                return XCTFail("\(text): \(String(describing: reason(hex(text))))")
            }
            XCTAssertEqual(got, announced, text)
        }
        // A map member takes at least two bytes: 3 members cannot fit in 5.
        XCTAssertEqual(reason(hex("83 a0 00 a0 00 a0")), .lengthExceedsInput(announced: 3, available: 5))
    }

    func testNestingDeeperThanTheLimitIsRejectedNotRecursedInto() {
        let deep = [UInt8](repeating: 0x91, count: 100_000) + [0xC0]
        XCTAssertEqual(reason(deep), .nestingTooDeep(limit: 512))
        let maps = Array([[UInt8]](repeating: [0x81, 0xA0], count: 600).joined()) + [0xC0]
        XCTAssertEqual(reason(maps), .nestingTooDeep(limit: 512))
        XCTAssertNil(reason([UInt8](repeating: 0x91, count: 512) + [0xC0]))
        XCTAssertEqual(reason([UInt8](repeating: 0x91, count: 3) + [0xC0], MessagePackDecoder(maximumDepth: 2)), .nestingTooDeep(limit: 2))
    }

    func testTheValueBudgetCountsKeysAndRefusesAContainerThatCannotFit() {
        let decoder = MessagePackDecoder(maximumValueCount: 5)
        XCTAssertNil(reason(hex("94 01 02 03 04"), decoder))
        XCTAssertEqual(reason(hex("95 01 02 03 04 05"), decoder), .tooManyValues(limit: 5), "refused at the header")
        XCTAssertEqual(reason(hex("93 01 91 02 91 03"), decoder), .tooManyValues(limit: 5))
        XCTAssertNil(reason(hex("82 a0 01 a161 02"), decoder))
        XCTAssertEqual(reason(hex("83 a0 01 a161 02 a162 03"), decoder), .tooManyValues(limit: 5))
        XCTAssertEqual(
            try? MessagePackDecoder(maximumValueCount: 5).decode(hex("94 01 02 03 04")), [1, 2, 3, 4])
    }

    func testInputLargerThanTheLimitIsRejectedBeforeReading() {
        let decoder = MessagePackDecoder(maximumInputSize: 4)
        XCTAssertEqual(reason(hex("a4 61626364"), decoder), .inputTooLarge(size: 5, limit: 4))
        XCTAssertNil(reason(hex("a3 616263"), decoder))
    }

    func testExtensionsTheNeverUsedByteNonStringKeysAndBadUTF8AreTypedErrors() {
        XCTAssertEqual(reason(hex("d401 00")), .unsupportedExtension(type: 1))
        XCTAssertEqual(reason(hex("d8ff" + String(repeating: "00", count: 16))), .unsupportedExtension(type: -1))
        XCTAssertEqual(reason(hex("c701 05 00")), .unsupportedExtension(type: 5))
        XCTAssertEqual(reason(hex("c80001 05 00")), .unsupportedExtension(type: 5))
        XCTAssertEqual(reason(hex("c900000001 05 00")), .unsupportedExtension(type: 5))
        XCTAssertEqual(reason(hex("c7")), .unexpectedEndOfInput)
        XCTAssertEqual(reason(hex("c1")), .neverUsedFormat)
        XCTAssertEqual(reason(hex("81 01 02")), .nonStringMapKey(format: 0x01))
        XCTAssertEqual(reason(hex("81 c0 02")), .nonStringMapKey(format: 0xC0))
        XCTAssertEqual(reason(hex("81 c401 00 02")), .nonStringMapKey(format: 0xC4))
        XCTAssertEqual(reason(hex("81 91 91 91 c0 02")), .nonStringMapKey(format: 0x91))
        XCTAssertEqual(reason(hex("a2 c328")), .invalidUTF8)
        XCTAssertEqual(reason(hex("a3 eda080")), .invalidUTF8, "a UTF-16 surrogate")
    }

    func testErrorsSayWhereAndWhat() {
        XCTAssertThrowsError(try JSONValue(messagePack: hex("92 01 c1"))) { error in
            XCTAssertEqual("\(error)", "Invalid MessagePack at byte 2: format byte 0xC1 is never used")
            XCTAssertEqual((error as? MessagePackDecodingError)?.offset, 2)
            XCTAssertEqual(error.localizedDescription, "Invalid MessagePack at byte 2: format byte 0xC1 is never used")
        }
        XCTAssertEqual(
            MessagePackDecodingError(.lengthExceedsInput(announced: 9, available: 2), offset: 0).description,
            "Invalid MessagePack at byte 0: announced length 9 exceeds the 2 bytes left")
        XCTAssertEqual(
            MessagePackDecodingError(.nonStringMapKey(format: 0x01), offset: 1).description,
            "Invalid MessagePack at byte 1: map key is not a string (format 0x01)")
    }

    func testRandomBytesNeverCrash() {
        var generator = SplitMix64(seed: 0x5EED)
        let decoder = MessagePackDecoder(maximumValueCount: 1000)
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 48)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if let value = try? decoder.decode(bytes) {
                XCTAssertNoThrow(try value.messagePackBytes())
            }
        }
    }
}
