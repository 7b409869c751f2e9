import XCTest
@testable import PubSubProtocol

/// `InboundPacket.parseFrame`: packets with their cid's wire text, and the value budget.
final class InboundPacketTests: XCTestCase {
    func testACanonicalIntegerCidHasNoText() throws {
        let packets = try XCTUnwrap(InboundPacket.parseFrame(#"{"event":"e","cid":7}"#))
        XCTAssertEqual(packets, [InboundPacket(packet: .invoke(event: "e", data: nil, cid: 7))])
        for cid in [Int64.max, Int64.min, 999_999_999_999_999_999, -1_000_000_000_000_000_000] {
            let extreme = try XCTUnwrap(InboundPacket.parseFrame(#"{"event":"e","cid":\#(cid)}"#))
            XCTAssertEqual(extreme, [InboundPacket(packet: .invoke(event: "e", data: nil, cid: cid))], "\(cid)")
        }
    }

    func testAnUnusualCidKeepsItsWireText() throws {
        for text in [
            "1.5", "1e30", "9223372036854775808", "18446744073709551616", "-9223372036854775809", "-9223372036854775810",
            "9223372036854775809", "1e3", "-0",
        ] {
            let packets = try XCTUnwrap(InboundPacket.parseFrame(#"{"event":"e","cid":\#(text),"data":1}"#), text)
            XCTAssertEqual(packets.count, 1)
            XCTAssertEqual(packets.first?.callIDText, text)
            let invoke = packets.first?.invokeWithCallIDText
            switch packets.first?.packet {
            case .raw?:
                XCTAssertEqual(invoke?.event, "e", text)
                XCTAssertEqual(invoke?.data, 1, text)
            case .invoke?:
                XCTAssertNil(invoke, "an Int64 cid stays an invoke: \(text)")
            default:
                XCTFail("\(text): \(String(describing: packets.first))")
            }
        }
    }

    func testBatchElementsKeepTheirOwnCidTexts() throws {
        let packets = try XCTUnwrap(InboundPacket.parseFrame(#"[{"event":"a","cid":1},{"event":"b","cid":2.5},{"rid":3.5}]"#))
        XCTAssertEqual(packets.map(\.callIDText), [nil, "2.5", nil])
    }

    func testTheLastRepeatedCidWins() throws {
        let packets = try XCTUnwrap(InboundPacket.parseFrame(#"{"event":"a","cid":1.5,"cid":2}"#))
        XCTAssertEqual(packets, [InboundPacket(packet: .invoke(event: "a", data: nil, cid: 2))])
    }

    func testANestedCidIsNotCaptured() throws {
        let packets = try XCTUnwrap(InboundPacket.parseFrame(#"{"event":"a","data":{"cid":1.5}}"#))
        XCTAssertEqual(packets.first?.callIDText, nil)
    }

    func testFramesWithoutPacketsAreNil() throws {
        for text in ["", "#1", "#2", "hello", "{", #"{"x":1}"#, "[1,"] {
            XCTAssertNil(try InboundPacket.parseFrame(text), text)
        }
    }

    /// The parser classifies packet objects from their members as it reads them, without a
    /// dictionary; the result must be what `Packet(classifying:)` makes of the parsed value,
    /// for every mix of members: repeated keys, extra keys, missing or mistyped ones, `cid`s and
    /// `rid`s that are not integers, null and non-null errors, batches of packets and non-packets.
    func testPacketsClassifiedWhileParsingMatchTheClassificationOfTheParsedValue() throws {
        let keys = ["event", "cid", "rid", "data", "error", "x", "even", "cids"]
        let values = [
            #""e""#, ##""#publish""##, "7", "-3", "0", "1.5", "1e3", "-0", "9223372036854775808", "null", "true", "[]",
            #"{"cid":1.5}"#, #"{"name":"E","message":"m"}"#, #""s""#, "[1,2]",
        ]
        var generator = SplitMix64(seed: 22)
        func object() -> String {
            let count = Int(generator.next() % 5)
            let members = (0..<count).map { _ in
                #""\#(keys[Int(generator.next() % UInt64(keys.count))])":\#(values[Int(generator.next() % UInt64(values.count))])"#
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        var classified = 0
        for round in 0..<20_000 {
            let text: String
            if round % 4 == 0 {
                let elements = (0..<Int(1 + generator.next() % 4)).map { _ in generator.next() % 6 == 0 ? "5" : object() }
                text = "[" + elements.joined(separator: ",") + "]"
            } else {
                text = object()
            }
            let value = try JSONValue(parsing: text)
            let expected: [Packet]
            if case .array(let elements) = value {
                expected = elements.map(Packet.init(classifying:))
            } else {
                expected = [Packet(classifying: value)]
            }
            guard let packets = try InboundPacket.parseFrame(text) else {
                // Only a lone object that is no packet makes no packets.
                XCTAssertEqual(expected.count, 1, text)
                if case .raw = expected[0] {} else { XCTFail("\(text): nil for \(expected[0])") }
                continue
            }
            XCTAssertEqual(packets.map(\.packet), expected, text)
            classified += expected.filter { if case .raw = $0 { false } else { true } }.count
        }
        XCTAssertGreaterThan(classified, 2_000, "the mixes should make many packets")
    }

    func testTheValueBudgetStopsParsing() throws {
        // {"event":"e","data":[0,0]}: object, 2 keys, "e", array, 2 zeros = 7 values.
        let frame = #"{"event":"e","data":[0,0]}"#
        XCTAssertNotNil(try InboundPacket.parseFrame(frame, maximumValues: 7))
        XCTAssertThrowsError(try InboundPacket.parseFrame(frame, maximumValues: 6)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .tooManyValues(limit: 6))
        }
        let huge = "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]"
        XCTAssertThrowsError(try InboundPacket.parseFrame(huge, maximumValues: 1_000)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .tooManyValues(limit: 1_000))
            XCTAssertLessThan((error as? JSONParseError)?.offset ?? .max, 2_100, "parsing stopped at the limit")
        }
    }

    func testJSONValueParsingTakesAValueBudget() {
        XCTAssertNoThrow(try JSONValue(parsing: "[1,2,3]", maximumValues: 4))
        XCTAssertThrowsError(try JSONValue(parsing: Array("[1,2,3]".utf8), maximumValues: 3)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .tooManyValues(limit: 3))
            XCTAssertEqual((error as? JSONParseError)?.description, "Invalid JSON at byte 5: more than 3 values")
        }
    }

    func testAResponseCanCarryTheCidText() {
        XCTAssertEqual(
            String(decoding: Packet.serializedResponse(ridText: "1e30", result: .success(["a": 1])), as: UTF8.self),
            #"{"rid":1e30,"data":{"a":1}}"#)
        XCTAssertEqual(
            String(decoding: Packet.serializedResponse(ridText: "1.5", result: .failure(RemoteError(name: "E", message: "m"))), as: UTF8.self),
            #"{"rid":1.5,"error":{"message":"m","name":"E"}}"#)
    }
}

/// `InboundPublish.scan`: a `#publish` invoke read without a tree, validated as strictly as the
/// parser, or `nil` for the general path.
final class InboundPublishTests: XCTestCase {
    private func publication(_ text: String) -> String? {
        InboundPublish.scan(text).map { String(decoding: $0.publication, as: UTF8.self) }
    }

    func testAPublishInvokeKeepsItsDataBytesAndReadsChannelAndCid() throws {
        let publish = try XCTUnwrap(InboundPublish.scan(##"{"event":"#publish","data":{"channel":"n\"s","data":{"b":[1,2.50],"a":null}},"cid":9}"##))
        XCTAssertEqual(publish.channel, "n\"s")
        XCTAssertEqual(publish.cid, 9)
        XCTAssertNil(publish.callIDText)
        XCTAssertEqual(
            String(decoding: publish.publication, as: UTF8.self), ##"{"event":"#publish","data":{"channel":"n\"s","data":{"b":[1,2.50],"a":null}}}"##)
        XCTAssertEqual(publication(##"{"event":"#publish","data":{"channel":"c"},"cid":1}"##), ##"{"event":"#publish","data":{"channel":"c"}}"##)
        XCTAssertEqual(InboundPublish.scan(##"{"cid":1e30,"data":{"data":1,"channel":"c"},"event":"#publish"}"##)?.callIDText, "1e30")
    }

    func testAnythingElseIsLeftToTheGeneralPath() {
        for text in [
            ##"{"event":"#subscribe","data":{"channel":"c"},"cid":1}"##,  // another event
            ##"{"event":"#publish","data":{"channel":"c"}}"##,  // a transmit
            ##"{"event":"#publish","data":{"channel":1},"cid":1}"##,  // no string channel
            ##"{"event":"#publish","data":"c","cid":1}"##,  // data not an object
            ##"{"event":"#publish","data":{"channel":"c"},"cid":"1"}"##,  // cid not a number
            ##"[{"event":"#publish","data":{"channel":"c"},"cid":1}]"##,  // a batch
            ##"{"event":"#publish","data":{"channel":"c","data":[1,]},"cid":1}"##,  // invalid JSON
            ##"{"event":"#publish","data":{"channel":"c","data":"\x"},"cid":1}"##,  // invalid escape
            ##"{"event":"#publish","data":{"channel":"c","data":01},"cid":1}"##,  // invalid number
            ##"{"event":"#publish","data":{"channel":"c"},"cid":1} x"##,  // trailing characters
            ##"{"event":"#publish","data":{"channel":"c"},"cid":1,"event":"other"}"##,  // the last event wins
        ] {
            XCTAssertNil(InboundPublish.scan(text), text)
        }
    }

    func testMemberAndEventNamesAreReadWhetherEscapedOrNot() {
        // Escaped spellings of "event", "data", "cid" and "#publish" are the same names.
        for text in [
            ##"{"\u0065vent":"#publish","data":{"channel":"c"},"cid":1}"##,
            ##"{"event":"\u0023publish","data":{"channel":"c"},"cid":1}"##,
            ##"{"event":"#publis\u0068","d\u0061ta":{"channel":"c"},"ci\u0064":1}"##,
        ] {
            XCTAssertEqual(publication(text), ##"{"event":"#publish","data":{"channel":"c"}}"##, text)
        }
        // Names that only start or end like them are other names.
        for text in [
            ##"{"event":"#publishx","data":{"channel":"c"},"cid":1}"##,
            ##"{"event":"#publis","data":{"channel":"c"},"cid":1}"##,
            ##"{"event":"x#publish","data":{"channel":"c"},"cid":1}"##,
            ##"{"events":"#publish","data":{"channel":"c"},"cid":1}"##,
            ##"{"event":"#publish","datas":{"channel":"c"},"cid":1}"##,
            ##"{"event":"#publish","data":{"channel":"c"},"cids":1}"##,
            ##"{"event":"#publish"##,
        ] {
            XCTAssertNil(InboundPublish.scan(text), text)
        }
    }

    func testInvalidUTF8InTheDataIsRefusedFromBytes() {
        var bytes = Array(##"{"event":"#publish","data":{"channel":"c","data":"?"},"cid":1}"##.utf8)
        let index = bytes.firstIndex(of: UInt8(ascii: "?")) ?? 0
        bytes[index] = 0xFF
        XCTAssertNil(bytes.withUnsafeBufferPointer { InboundPublish.scan($0, isValidUTF8: false) })
        bytes[index] = UInt8(ascii: "x")
        XCTAssertNotNil(bytes.withUnsafeBufferPointer { InboundPublish.scan($0, isValidUTF8: false) })
    }
}

/// The publish scanner's validation agrees with the parser: a data document is accepted without
/// a tree exactly when `JSONValue(parsing:)` accepts it.
final class InboundPublishValidationTests: XCTestCase {
    func testRandomTokenSoupIsAcceptedExactlyWhenTheParserAcceptsIt() {
        let tokens = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "d800", "\\n", "\\x", "-", "0", "1", "e", ".", "+",
            "true", "nul", "null", "\"k\"", " ", "\n", "é", "\u{1}",
        ]
        var generator = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<20_000 {
            var data = ""
            for _ in 0..<Int(1 + generator.next() % 12) { data += tokens[Int(generator.next() % UInt64(tokens.count))] }
            let frame = ##"{"event":"#publish","data":{"channel":"c","data":"## + data + ##"},"cid":1}"##
            let parses = (try? JSONValue(parsing: data)) != nil
            let framed = (try? JSONValue(parsing: frame)) != nil
            let scanned = InboundPublish.scan(frame)
            XCTAssertEqual(scanned != nil, framed, frame)
            if parses { XCTAssertTrue(framed, frame) }
            if let scanned {
                accepted += 1
                // The publication is the frame's data, byte for byte, and parses to the same value.
                let publication = String(decoding: scanned.publication, as: UTF8.self)
                XCTAssertEqual(
                    try? JSONValue(parsing: publication)["data"]?["data"], try? JSONValue(parsing: frame)["data"]?["data"], frame)
            }
        }
        XCTAssertGreaterThan(accepted, 100, "the soup should hold valid documents too")
    }
}
