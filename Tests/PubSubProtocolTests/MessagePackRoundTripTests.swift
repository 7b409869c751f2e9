import Foundation
import PubSubProtocol
import XCTest

/// Random JSON value trees survive encode → decode unchanged, and their encoding is stable.
final class MessagePackRoundTripTests: XCTestCase {
    private struct TreeGenerator {
        var random: SplitMix64

        mutating func int(_ bound: UInt64) -> Int { Int(random.next() % bound) }

        mutating func string() -> String {
            let pieces = ["a", "Z", "0", " ", "é", "€", "😀", "\u{0}", "\"", "\\", "base64", "data", "#publish"]
            let length = [0, 1, 5, 31, 32, 33, 100, 255, 256, 300][int(10)]
            var text = ""
            while text.utf8.count < length { text += pieces[int(UInt64(pieces.count))] }
            return text
        }

        mutating func number() -> JSONValue {
            let interesting: [Int64] = [
                0, 1, -1, 31, 32, 127, 128, -32, -33, -128, -129, 255, 256, 65535, 65536, -32768, -32769,
                2_147_483_647, 2_147_483_648, -2_147_483_648, -2_147_483_649, 1 << 53, (1 << 53) + 1,
                -(1 << 53) - 1, .max, .min,
            ]
            switch int(4) {
            case 0: return .int(interesting[int(UInt64(interesting.count))])
            case 1: return .int(Int64(bitPattern: random.next()) >> Int64(int(64)))
            case 2:
                let value = Double(bitPattern: random.next())
                return value.isNaN ? .double(0.5) : Self.normalized(value)
            default:
                return Self.normalized(Double(Int64(bitPattern: random.next()) >> 40) / 1024)
            }
        }

        /// The form the decoders produce: integral values in the `Int64` range are `.int`.
        static func normalized(_ value: Double) -> JSONValue {
            if value.rounded(.towardZero) == value, value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 {
                return .int(Int64(value))
            }
            return .double(value)
        }

        mutating func value(depth: Int) -> JSONValue {
            // Wide containers near the root only, so a tree stays a few thousand values.
            let widths = depth < 2 ? [0, 1, 3, 15, 16, 17] : [0, 1, 2, 3]
            switch int(depth > 3 ? 6 : 9) {
            case 0: return .null
            case 1: return .bool(int(2) == 0)
            case 2, 3: return number()
            case 4: return .string(string())
            case 5: return .binary(Data((0..<[0, 1, 8, 255, 256, 70000][int(depth == 0 ? 6 : 5)]).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
            case 6, 7:
                return .array((0..<widths[int(UInt64(widths.count))]).map { _ in value(depth: depth + 1) })
            default:
                var members: [String: JSONValue] = [:]
                for _ in 0..<widths[int(UInt64(widths.count))] { members[string()] = value(depth: depth + 1) }
                return .object(members)
            }
        }
    }

    func testRandomTreesSurviveEncodeDecodeAndEncodeTheSameAgain() throws {
        var generator = TreeGenerator(random: SplitMix64(seed: 0x4D5047))
        for round in 0..<400 {
            let value = generator.value(depth: 0)
            let encoded = try value.messagePackBytes()
            let decoded = try JSONValue(messagePack: encoded)
            XCTAssertEqual(decoded, value, "round \(round)")
            XCTAssertEqual(try decoded.messagePackBytes(), encoded, "round \(round)")
        }
    }

    func testDeepTreesUpToTheLimitRoundTrip() throws {
        var value: JSONValue = "leaf"
        for level in 0..<JSONValue.defaultMaximumDepth {
            value = level.isMultiple(of: 2) ? [value] : ["k": value]
        }
        XCTAssertEqual(try JSONValue(messagePack: try value.messagePackBytes()), value)
        XCTAssertThrowsError(try JSONValue(messagePack: try ([value] as JSONValue).messagePackBytes()))
    }

    func testEveryEncodedNumberDecodesToTheSameNumber() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let raw = random.next()
            let integer = Int64(bitPattern: raw) >> Int64(raw % 64)
            XCTAssertEqual(try JSONValue(messagePack: try JSONValue.int(integer).messagePackBytes()), .int(integer))
            let number = TreeGenerator.normalized(Double(bitPattern: raw))
            if case .double(let double) = number, double.isNaN { continue }
            XCTAssertEqual(try JSONValue(messagePack: try number.messagePackBytes()), number)
        }
    }
}
