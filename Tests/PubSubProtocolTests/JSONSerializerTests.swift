import Foundation
import XCTest
import PubSubProtocol

final class JSONSerializerTests: XCTestCase {
    func testScalarsSerializeLikeJavaScript() {
        XCTAssertEqual(JSONValue.null.serialized(), "null")
        XCTAssertEqual(JSONValue.bool(true).serialized(), "true")
        XCTAssertEqual(JSONValue.bool(false).serialized(), "false")
        XCTAssertEqual(JSONValue.int(0).serialized(), "0")
        XCTAssertEqual(JSONValue.int(-42).serialized(), "-42")
        XCTAssertEqual(JSONValue.int(.max).serialized(), "9223372036854775807")
        XCTAssertEqual(JSONValue.int(.min).serialized(), "-9223372036854775808")
    }

    func testDoublesUseJavaScriptNumberFormatting() {
        let expectations: [(Double, String)] = [
            (1.0, "1"), (-2.0, "-2"), (1.5, "1.5"), (0.1, "0.1"), (-0.0, "0"), (0.0, "0"),
            (100.0, "100"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"), (1.5e300, "1.5e+300"),
            (0.000001, "0.000001"), (0.0000001, "1e-7"), (1.5e-7, "1.5e-7"), (0.00012345, "0.00012345"),
            (9007199254740993.0, "9007199254740992"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (Double.leastNonzeroMagnitude, "5e-324"), (0.30000000000000004, "0.30000000000000004"),
            (123.456, "123.456"), (-1e-10, "-1e-10"), (12345678901234567890.0, "12345678901234567000"),
        ]
        for (value, expected) in expectations {
            XCTAssertEqual(JSONValue.double(value).serialized(), expected, "\(value)")
        }
    }

    func testNonFiniteDoublesSerializeAsNullLikeJavaScript() {
        XCTAssertEqual(JSONValue.double(.nan).serialized(), "null")
        XCTAssertEqual(JSONValue.double(.infinity).serialized(), "null")
        XCTAssertEqual(JSONValue.double(-.infinity).serialized(), "null")
    }

    func testStringEscaping() {
        XCTAssertEqual(JSONValue.string("a/b").serialized(), #""a/b""#)
        XCTAssertEqual(JSONValue.string("q\"b\\").serialized(), #""q\"b\\""#)
        XCTAssertEqual(JSONValue.string("\u{8}\u{c}\n\r\t").serialized(), #""\b\f\n\r\t""#)
        XCTAssertEqual(JSONValue.string("\u{0}\u{1}\u{1f}\u{7f}").serialized(), "\"\\u0000\\u0001\\u001f\u{7f}\"")
        XCTAssertEqual(JSONValue.string("é€😀\u{2028}").serialized(), "\"é€😀\u{2028}\"")
    }

    func testObjectKeysAreSorted() {
        let value: JSONValue = ["b": 1, "a": ["d": true, "c": nil], "c": [1, 2.5, "x"]]
        XCTAssertEqual(value.serialized(), #"{"a":{"c":null,"d":true},"b":1,"c":[1,2.5,"x"]}"#)
    }

    func testRoundTripPreservesValues() throws {
        let documents = [
            ##"{"event":"#publish","data":{"channel":"room","data":{"msg":"hi","bin":{"base64":true,"data":"aGVsbG8="}}}}"##,
            #"[1,-2,3.25,1e+21,"\u0000",true,false,null,[],{}]"#,
            #"{"rid":1,"data":{"id":"HD6PK6Misy-HdvFLAAAA","pingTimeout":20000,"isAuthenticated":false}}"#,
            #""\ud83d\ude00 ü""#,
        ]
        for text in documents {
            let value = try JSONValue(parsing: text)
            let again = try JSONValue(parsing: value.serialized())
            XCTAssertEqual(again, value, text)
            XCTAssertEqual(again.serialized(), value.serialized())
        }
    }

    func testSerializedBytesEqualSerializedString() {
        let value: JSONValue = ["k": "vé", "n": [1, 2]]
        XCTAssertEqual(value.serializedBytes(), Array(value.serialized().utf8))
    }

    func testRandomValuesRoundTrip() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let value = RandomJSON.value(depth: 0, using: &generator)
            let text = value.serialized()
            XCTAssertEqual(try JSONValue(parsing: text), value, text)
            XCTAssertEqual(try JSONValue(parsing: Array(text.utf8)), value, text)
        }
    }

    func testLiteralsBuildTheExpectedCases() {
        let value: JSONValue = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1]]
        XCTAssertEqual(value["n"], .null)
        XCTAssertEqual(value["b"], .bool(true))
        XCTAssertEqual(value["i"], .int(3))
        XCTAssertEqual(value["d"], .double(2.5))
        XCTAssertEqual(value["s"], .string("x"))
        XCTAssertEqual(value["a"]?[0], .int(1))
        XCTAssertNil(value["a"]?[1])
        XCTAssertNil(value["a"]?[-1])
        XCTAssertNil(value[0])
    }

    func testAccessors() {
        XCTAssertEqual(JSONValue.double(3.0).intValue, 3)
        XCTAssertNil(JSONValue.double(3.5).intValue)
        XCTAssertNil(JSONValue.double(1e19).intValue)
        XCTAssertNil(JSONValue.double(.nan).intValue)
        XCTAssertEqual(JSONValue.int(3).doubleValue, 3.0)
        XCTAssertNil(JSONValue.string("3").intValue)
        XCTAssertEqual(JSONValue.array([1]).arrayValue, [1])
        XCTAssertEqual(JSONValue.object(["a": 1]).objectValue, ["a": 1])
        XCTAssertNil(JSONValue.null.objectValue)
        XCTAssertTrue(JSONValue.null.isNull)
        XCTAssertFalse(JSONValue.int(0).isNull)
    }

    func testBinaryWrapper() {
        let wrapper = JSONValue.binary(Data("hello".utf8))
        XCTAssertEqual(wrapper.serialized(), #"{"base64":true,"data":"aGVsbG8="}"#)
        XCTAssertEqual(wrapper.binaryData, Data("hello".utf8))
        XCTAssertNil(JSONValue.object(["base64": 1, "data": "aGVsbG8="]).binaryData)
        XCTAssertNil(JSONValue.object(["base64": true, "data": "!!!"]).binaryData)
        XCTAssertNil(JSONValue.string("aGVsbG8=").binaryData)
    }

    func testJSONValueIsItselfCodable() throws {
        let value: JSONValue = ["a": [1, 2.5, "s", true, nil]]
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: data), value)
    }
}

/// Random JSON values for round-trip and fuzz tests.
enum RandomJSON {
    static func value(depth: Int, using generator: inout SplitMix64) -> JSONValue {
        let pick = Int(generator.next() % (depth > 3 ? 6 : 8))
        switch pick {
        case 0: return .null
        case 1: return .bool(generator.next() & 1 == 0)
        case 2: return .int(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64))
        case 3:
            let double = Double(bitPattern: generator.next())
            return double.isFinite ? (JSONValue(parsingNumber: double)) : .double(1.5)
        case 4, 5: return .string(string(using: &generator))
        case 6:
            return .array((0..<Int(generator.next() % 5)).map { _ in value(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(generator.next() % 5) {
                members[string(using: &generator)] = value(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    static func string(using generator: inout SplitMix64) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1f}", "é", "€", "😀", "\u{FFFD}", "#"]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(generator.next() % 12) {
            scalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
        }
        return String(scalars)
    }
}

extension JSONValue {
    /// The case the parser produces for `number`: integral values in range are `.int`.
    init(parsingNumber number: Double) {
        if number.rounded(.towardZero) == number, number >= -9_223_372_036_854_775_808.0, number < 9_223_372_036_854_775_808.0 {
            self = .int(Int64(number))
        } else {
            self = .double(number)
        }
    }
}
