import Foundation
import XCTest
import PubSubProtocol

/// The direct Encodable → JSONValue → Decodable bridge.
final class JSONValueCodableTests: XCTestCase {
    private struct Message: Codable, Equatable {
        var text: String
        var count: Int
        var flag: Bool
        var ratio: Double
        var payload: Data
        var note: String?
    }

    private enum Mood: String, Codable { case happy, sad }

    private enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case square(side: Int)
        case empty
    }

    private struct Everything: Codable, Equatable {
        var int8: Int8 = -8, int16: Int16 = 16, int32: Int32 = -32, int64: Int64 = .max
        var uint8: UInt8 = 255, uint16: UInt16 = 16, uint32: UInt32 = 32, uint: UInt = 7
        var float: Float = 0.1
        var double: Double = 2.5
        var strings: [String] = ["a", "b"]
        var nested: [[Int]] = [[1], [], [2, 3]]
        var byName: [String: Int] = ["x": 1, "y": 2]
        var byNumber: [Int: String] = [1: "one", 2: "two"]
        var set: Set<Int> = [3]
        var mood: Mood = .happy
        var shapes: [Shape] = [.circle(radius: 1.5), .square(side: 2), .empty]
        var optionalPresent: Int? = 5
        var optionalAbsent: Int? = nil
        var date = Date(timeIntervalSince1970: 1_600_000_060)
        var url = URL(string: "https://example.com/a?b=c")!
        var json: JSONValue = ["raw": [1, true, nil]]
    }

    private class Base: Codable {
        var id = 1
    }

    private final class Derived: Base {
        var name = "d"
        private enum CodingKeys: String, CodingKey { case name }

        override init() { super.init() }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    func testMessageRoundTripsWithTheBinaryWrapper() throws {
        let message = Message(text: "hi", count: 3, flag: true, ratio: 0.5, payload: Data([1, 2, 3]), note: nil)
        let value = try JSONValue(encoding: message)
        XCTAssertEqual(value, ["text": "hi", "count": 3, "flag": true, "ratio": 0.5, "payload": .binary(Data([1, 2, 3]))])
        XCTAssertNil(value["note"], "nil optionals are left out, as JSONEncoder does")
        XCTAssertEqual(try value.decode(Message.self), message)
    }

    func testEveryKindOfValueRoundTrips() throws {
        let original = Everything()
        let value = try JSONValue(encoding: original)
        XCTAssertEqual(value["float"], .double(0.1))
        XCTAssertEqual(value["int64"], .int(.max))
        XCTAssertEqual(value["mood"], "happy")
        XCTAssertEqual(value["date"], "2020-09-13T12:27:40Z")
        XCTAssertEqual(value["url"], "https://example.com/a?b=c")
        XCTAssertEqual(value["byNumber"], ["1": "one", "2": "two"])
        XCTAssertEqual(value["json"], ["raw": [1, true, nil]])
        XCTAssertNil(value["optionalAbsent"])
        XCTAssertEqual(try value.decode(Everything.self), original)
        // And through text.
        XCTAssertEqual(try JSONValue(parsing: value.serialized()).decode(Everything.self), original)
    }

    func testMatchesFoundationJSONEncoderForPlainTypes() throws {
        struct Plain: Codable {
            var name = "x", list = [1, 2], flag = false, ratio = 1.25, whole = 3.0, nested = ["k": [true]]
            var big = UInt64.max, small = Int64.min
        }
        let direct = try JSONValue(encoding: Plain())
        let viaText = try JSONValue(parsing: JSONEncoder().encode(Plain()))
        XCTAssertEqual(direct, viaText)
        XCTAssertEqual(direct["whole"], .int(3))
        XCTAssertEqual(direct["big"], .double(18446744073709551615.0))
    }

    func testClassHierarchyUsesSuperEncoder() throws {
        let value = try JSONValue(encoding: Derived())
        XCTAssertEqual(value, ["name": "d", "super": ["id": 1]])
        XCTAssertEqual(try value.decode(Derived.self).id, 1)
    }

    func testTopLevelScalarsAndCollections() throws {
        XCTAssertEqual(try JSONValue(encoding: 5), 5)
        XCTAssertEqual(try JSONValue(encoding: "s"), "s")
        XCTAssertEqual(try JSONValue(encoding: [1.5, 2]), [1.5, 2])
        XCTAssertEqual(try JSONValue(encoding: Int?.none), nil)
        XCTAssertEqual(try JSONValue.int(7).decode(Int.self), 7)
        XCTAssertEqual(try JSONValue.double(7).decode(Int.self), 7)
        XCTAssertEqual(try JSONValue.int(7).decode(Double.self), 7.0)
        XCTAssertEqual(try JSONValue.null.decode(Int?.self), nil)
        XCTAssertEqual(try JSONValue.string("aGVsbG8=").decode(Data.self), Data("hello".utf8))
        XCTAssertEqual(try JSONValue.array([1, nil, 3]).decode([Int?].self), [1, nil, 3])
    }

    func testNonFiniteNumbersCannotBeEncoded() {
        XCTAssertThrowsError(try JSONValue(encoding: Double.nan)) { error in
            XCTAssertTrue("\(error)".hasPrefix("Cannot encode Double as JSON"), "\(error)")
        }
        XCTAssertThrowsError(try JSONValue(encoding: [Float.infinity]))
    }

    func testDecodingErrorsNameTheProblemAndPath() {
        let value: JSONValue = ["text": 1, "count": 3, "flag": true, "ratio": 0.5, "payload": .binary(Data())]
        XCTAssertThrowsError(try value.decode(Message.self)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("Cannot decode Message from JSON"), text)
            XCTAssertTrue(text.contains("Expected String but found a number"), text)
            XCTAssertTrue(text.contains("text"), text)
        }
        XCTAssertThrowsError(try JSONValue.object(["count": 3]).decode(Message.self)) { error in
            XCTAssertTrue("\(error)".contains("keyNotFound"), "\(error)")
        }
        XCTAssertThrowsError(try JSONValue.int(300).decode(UInt8.self)) { error in
            XCTAssertTrue("\(error)".contains("does not fit in UInt8"), "\(error)")
        }
        XCTAssertThrowsError(try JSONValue.double(1.5).decode(Int.self))
        XCTAssertThrowsError(try JSONValue.int(1).decode(Bool.self), "numbers are never booleans")
        XCTAssertThrowsError(try JSONValue.null.decode(String.self)) { error in
            XCTAssertTrue("\(error)".contains("valueNotFound"), "\(error)")
        }
        XCTAssertThrowsError(try JSONValue.string("yesterday").decode(Date.self))
        XCTAssertThrowsError(try JSONValue.array([1]).decode([String: Int].self))
        XCTAssertThrowsError(try JSONValue.string("x").decode(Int.self)) { error in
            XCTAssertTrue("\(error)".hasPrefix("Cannot decode Int from JSON"), "\(error)")
        }
    }

    func testFractionalSecondDatesDecode() throws {
        let date = try JSONValue.string("2020-09-13T12:27:40.250Z").decode(Date.self)
        XCTAssertEqual(date.timeIntervalSince1970, 1_600_000_060.25, accuracy: 0.0001)
    }
}
