import XCTest
import PubSubProtocol

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    private func parseBytes(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONValue(parsing: bytes)
    }

    private func assertRejects(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JSONValue(parsing: text), "accepted \(text.debugDescription)", file: file, line: line)
        XCTAssertThrowsError(try JSONValue(parsing: Array(text.utf8)), "accepted bytes of \(text.debugDescription)", file: file, line: line)
    }

    func testScalarsParse() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("0"), .int(0))
        XCTAssertEqual(try parse("42"), .int(42))
        XCTAssertEqual(try parse("-17"), .int(-17))
        XCTAssertEqual(try parse("1.5"), .double(1.5))
        XCTAssertEqual(try parse("\"hi\""), .string("hi"))
        XCTAssertEqual(try parse(" \t\r\n[ ] \n"), .array([]))
        XCTAssertEqual(try parse("{}"), .object([:]))
    }

    func testTrueStaysBoolNeverOne() throws {
        let value = try parse(#"{"base64":true,"n":1}"#)
        XCTAssertEqual(value["base64"], .bool(true))
        XCTAssertNotEqual(value["base64"], .int(1))
        XCTAssertNil(value["base64"]?.intValue)
        XCTAssertNil(value["n"]?.boolValue)
    }

    func testNullIsDistinctFromAbsent() throws {
        let value = try parse(#"{"authToken":null}"#)
        XCTAssertEqual(value["authToken"], .some(.null))
        XCTAssertNil(value["missing"])
        XCTAssertTrue(value["authToken"]?.isNull ?? false)
    }

    func testIntegersKeepIntegerForm() throws {
        XCTAssertEqual(try parse("9223372036854775807"), .int(Int64.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(try parse(#"{"cid":3}"#).serialized(), #"{"cid":3}"#)
    }

    func testIntegersBeyondInt64BecomeDoubles() throws {
        XCTAssertEqual(try parse("9223372036854775808"), .double(9223372036854775808.0))
        XCTAssertEqual(try parse("-10000000000000000000"), .double(-1e19))
        // The nearest double to -2^63-1 is -2^63, which is Int64.min.
        XCTAssertEqual(try parse("-9223372036854775809"), .int(.min))
        XCTAssertEqual(try parse("123456789012345678901234567890"), .double(1.2345678901234568e29))
    }

    func testNegativeZeroParsesAsZero() throws {
        XCTAssertEqual(try parse("-0"), .int(0))
        XCTAssertEqual(try parse("-0.0"), .int(0))
        XCTAssertEqual(try parse("-0e5"), .int(0))
        XCTAssertEqual(JSONValue.double(-0.0).serialized(), "0")
    }

    func testExponentForms() throws {
        XCTAssertEqual(try parse("1e3"), .int(1000))
        XCTAssertEqual(try parse("1E3"), .int(1000))
        XCTAssertEqual(try parse("1e+3"), .int(1000))
        XCTAssertEqual(try parse("2.0"), .int(2))
        XCTAssertEqual(try parse("1e18"), .int(1_000_000_000_000_000_000))
        XCTAssertEqual(try parse("1e19"), .double(1e19))
        XCTAssertEqual(try parse("25e-1"), .double(2.5))
        XCTAssertEqual(try parse("-1.25E-2"), .double(-0.0125))
        XCTAssertEqual(try parse("0.1"), .double(0.1))
        XCTAssertEqual(try parse("1e400"), .double(.infinity))
        XCTAssertEqual(try parse("-1e400"), .double(-.infinity))
        XCTAssertEqual(try parse("1e-400"), .int(0))
        XCTAssertEqual(try parse("2.2250738585072011e-308"), .double(Double("2.2250738585072011e-308") ?? 0))
        XCTAssertNotEqual(try parse("2.2250738585072011e-308"), .double(0))
        XCTAssertEqual(try parse("5e-324"), .double(Double.leastNonzeroMagnitude))
        XCTAssertEqual(try parse("1.7976931348623157e308"), .double(1.7976931348623157e308))
        XCTAssertEqual(try parse("0.30000000000000004"), .double(0.30000000000000004))
        XCTAssertEqual(try parse("3.0").intValue, 3)
    }

    func testNumbersAgreeWithStandardLibraryOnManyRandomValues() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<5000 {
            let bits = generator.next()
            let value = Double(bitPattern: bits)
            guard value.isFinite else { continue }
            let text = "\(value)"
            let parsed = try parse(text)
            XCTAssertEqual(parsed.doubleValue, value, text)
            // And what we write parses back to the same double.
            let reparsed = try parse(parsed.serialized())
            XCTAssertEqual(reparsed.doubleValue, value, parsed.serialized())
        }
    }

    func testStringEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u20AC""#), .string("é€"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try parse("\"ü?>>😀\""), .string("ü?>>😀"))
    }

    func testLoneSurrogatesBecomeReplacementCharacter() throws {
        XCTAssertEqual(try parse(#""\ud800""#), .string("\u{FFFD}"))
        XCTAssertEqual(try parse(#""a\udc00b""#), .string("a\u{FFFD}b"))
        XCTAssertEqual(try parse(#""\ud800\u0041""#), .string("\u{FFFD}A"))
        XCTAssertEqual(try parse(#""\ude00\ud83d""#), .string("\u{FFFD}\u{FFFD}"))
        XCTAssertEqual(try parse(#""\ud83dx""#), .string("\u{FFFD}x"))
    }

    func testDeepNestingUpToTheLimitIsAccepted() throws {
        let depth = JSONValue.defaultMaximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try parse(text))
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        XCTAssertNoThrow(try parse(objects))
    }

    func testNestingBeyondTheLimitIsRejectedNotCrashing() {
        let depth = JSONValue.defaultMaximumDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertThrowsError(try parse(text)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .nestingTooDeep(limit: JSONValue.defaultMaximumDepth))
        }
        // Far deeper than any stack could take recursively.
        let huge = String(repeating: "[", count: 1_000_000)
        XCTAssertThrowsError(try parse(huge))
        let hugeObjects = String(repeating: #"{"a":"#, count: 100_000)
        XCTAssertThrowsError(try parse(hugeObjects))
    }

    func testCustomDepthLimit() {
        XCTAssertNoThrow(try JSONValue(parsing: "[[1]]", maximumDepth: 2))
        XCTAssertThrowsError(try JSONValue(parsing: "[[[1]]]", maximumDepth: 2))
    }

    func testInvalidDocumentsAreRejected() {
        let invalid = [
            "", " ", "nul", "tru", "falsey", "True", "NULL", "undefined", "NaN", "Infinity", "-Infinity",
            "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1.5.2", "- 1", "--1",
            "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\\"", "'single'",
            "\"tab\there\"", "\"nl\nhere\"", "\"\u{0}\"",
            "[", "]", "[1,]", "[,1]", "[1 2]", "[1,,2]", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}",
            "{a:1}", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{1:2}", "{\"a\":1]", "[1}",
            "{} {}", "[] x", "1 2", "\"a\" \"b\"", "null null", "{\"a\":1}garbage", "[1]]", "\u{feff}[]",
        ]
        for text in invalid { assertRejects(text) }
    }

    func testConformanceAcceptCases() throws {
        // Selected "y_" cases of the JSONTestSuite (RFC 8259 parsing conformance).
        XCTAssertEqual(try parse("[-0]"), [0])
        XCTAssertEqual(try parse("[ 4]"), [4])
        XCTAssertEqual(try parse("[1E-2]"), [0.01])
        XCTAssertEqual(try parse("[1e-2]"), [0.01])
        XCTAssertEqual(try parse("[123e65]"), [.double(123e65)])
        XCTAssertEqual(try parse(#"{"":0}"#), ["": 0])
        XCTAssertEqual(try parse(#"["\u0022"]"#), ["\""])
        XCTAssertEqual(try parse(#"["\u0000"]"#), ["\u{0}"])
        XCTAssertEqual(try parse(#"["\uFFFF"]"#), ["\u{FFFF}"])
        XCTAssertEqual(try parseBytes([0x5B, 0x22, 0xEF, 0xBF, 0xBF, 0x22, 0x5D]), ["\u{FFFF}"])
        XCTAssertEqual(try parseBytes([0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]), "\u{10FFFF}")
        XCTAssertEqual(try parse(#"["\\u0000"]"#), ["\\u0000"])
        XCTAssertEqual(try parse(" [] "), [])
        XCTAssertEqual(try parse("\"asd\""), "asd")
    }

    func testConformanceRejectCases() {
        // Selected "n_" cases of the JSONTestSuite.
        for text in [
            "0.e1", "2.e3", "1 000", "[1.2a-3]", "{\"a\":\"b\"}#{}", "[\"a\"\u{0}]", "[\"\\\u{0}\"]",
            "[-1x]", "[0e]", "[1.0e-]", "[.123]", "[012]", "[-.1]", "[Infinity]", "[\"\\uD800\\\"]",
            "{\"a\":1 ,}", "[\"x\",,]", "{\"a\" \"b\"}", "[\u{7f}]", "[\"\\a\"]", "[\"\\\\\\\"]",
        ] {
            assertRejects(text)
        }
    }

    func testTrailingGarbageIsRejectedButTrailingWhitespaceIsNot() throws {
        XCTAssertEqual(try parse("{\"a\":1}  \r\n\t"), ["a": 1])
        XCTAssertThrowsError(try parse("{\"a\":1}x")) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .trailingCharacters)
            XCTAssertEqual((error as? JSONParseError)?.offset, 7)
        }
    }

    func testInvalidUTF8InByteInputIsRejected() {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22],  // invalid lead byte
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // invalid after an escape
            [0x5B, 0xC3, 0xA9, 0x5D],  // non-ASCII outside a string
        ]
        for bytes in cases {
            XCTAssertThrowsError(try parseBytes(bytes), "\(bytes)")
        }
        XCTAssertEqual(try parseBytes([0x22, 0xC3, 0xA9, 0x22]), .string("é"))
        XCTAssertEqual(try parseBytes([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x5C, 0x6E, 0x22]), .string("😀\n"))
    }

    func testDuplicateKeysKeepTheLastValueLikeJavaScript() throws {
        XCTAssertEqual(try parse(#"{"a":1,"a":2}"#), ["a": 2])
    }

    func testNonContiguousCollectionInput() throws {
        let lazyBytes = "[1,\"x\"]".utf8.lazy.map { $0 }
        XCTAssertEqual(try JSONValue(parsing: lazyBytes), [1, "x"])
    }

    func testErrorDescriptionsAreReadable() {
        XCTAssertThrowsError(try parse("[1,]")) { error in
            XCTAssertEqual("\(error)", "Invalid JSON at byte 3: unexpected character ']'")
        }
        XCTAssertThrowsError(try parse("")) { error in
            XCTAssertEqual("\(error)", "Invalid JSON at byte 0: empty input")
        }
    }
}

/// Deterministic pseudo-random numbers for reproducible fuzz-style tests.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
