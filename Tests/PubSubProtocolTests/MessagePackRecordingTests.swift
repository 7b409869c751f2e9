import Foundation
import PubSubProtocol
import XCTest

/// Every binary frame of the min-bin recordings decodes to what msgpack-lite read, and encodes
/// back to the very same bytes.
final class MessagePackRecordingTests: XCTestCase {
    /// The key orders of the JavaScript objects in the recordings whose keys are not sorted
    /// (handshake and authenticate responses, auth errors, the long-form packet probe).
    static let javaScriptKeyOrders: [[String]] = [
        ["id", "pingTimeout", "isAuthenticated"],
        ["id", "pingTimeout", "authError", "isAuthenticated"],
        ["isAuthenticated", "authError"],
        ["message", "name", "isBadToken"],
        ["message", "name", "expiry", "isBadToken"],
        ["event", "data", "cid"],
    ]

    /// Writes `value` as msgpack-lite wrote the recorded JavaScript object, through the
    /// encoder's header-by-header API: maps in their JavaScript key order when known, sorted
    /// otherwise.
    static func encodeInJavaScriptOrder(_ value: JSONValue, into encoder: inout MessagePackEncoder) throws {
        switch value {
        case .array(let elements):
            try encoder.encodeArrayHeader(count: elements.count)
            for element in elements { try encodeInJavaScriptOrder(element, into: &encoder) }
        case .object(let members) where value.binaryData == nil:
            let keys = Set(members.keys)
            let order = javaScriptKeyOrders.first { Set($0) == keys } ?? members.keys.sorted()
            try encoder.encodeMapHeader(count: members.count)
            for key in order {
                try encoder.encodeString(key)
                try encodeInJavaScriptOrder(members[key] ?? .null, into: &encoder)
            }
        default:
            try encoder.encode(value)
        }
    }

    func testTheRecordingsAreThere() throws {
        XCTAssertEqual(try MinBinFrame.allFiles().count, 84)
        XCTAssertEqual(try MinBinFrame.all().count, 384)
    }

    func testEveryRecordedFrameDecodesToWhatMsgpackLiteRead() throws {
        var decoded = 0
        for frame in try MinBinFrame.all() {
            if frame.bytes.isEmpty {
                // raw-minbin-binary-pong.proto2: the protocol-2 pong sent in a binary frame.
                XCTAssertThrowsError(try JSONValue(messagePack: frame.bytes), frame.location)
                XCTAssertNil(frame.msgpackLiteReading, frame.location)
                continue
            }
            if frame.bytes == Array("#2".utf8) {
                // raw-minbin-binary-pong.proto1: msgpack-lite reads 35 and ignores the "2".
                XCTAssertEqual(frame.msgpackLiteReading, 35, frame.location)
                continue
            }
            let value = try JSONValue(messagePack: frame.bytes)
            XCTAssertEqual(value, frame.msgpackLiteReading, frame.location)
            decoded += 1
        }
        XCTAssertEqual(decoded, 378)
    }

    func testEveryRecordedFrameEncodesBackToTheSameBytes() throws {
        var sortedAlready = 0
        var reencoded = 0
        for frame in try MinBinFrame.all() {
            guard let value = try? JSONValue(messagePack: frame.bytes) else { continue }
            var encoder = MessagePackEncoder()
            try Self.encodeInJavaScriptOrder(value, into: &encoder)
            XCTAssertEqual(encoder.bytes, frame.bytes, frame.location)
            reencoded += 1
            if try value.messagePackBytes() == frame.bytes { sortedAlready += 1 }
        }
        XCTAssertEqual(reencoded, 378)
        // Those whose maps all have one key or sorted keys need no order at all; the rest
        // differ only in key order (the handshake response of every recording among them).
        XCTAssertEqual(378 - sortedAlready, 92, "frames with a map in JavaScript key order")
    }

    func testTheRecordingsUseOnlyTheFormatsWeWriteAndNoExtensions() throws {
        var formats = Set<String>()
        for frame in try MinBinFrame.all() {
            guard let value = try? JSONValue(messagePack: frame.bytes) else { continue }
            _ = value
            var index = 0
            Self.collectFormats(frame.bytes, &index, into: &formats)
        }
        XCTAssertEqual(
            formats,
            ["positive fixint", "fixmap", "fixarray", "fixstr", "nil", "false", "true", "bin 8", "uint 8", "uint 16", "str 8"])
    }

    /// Walks one value and names the format of it and everything inside (a test oracle with no
    /// limits: the input is our own recordings).
    private static func collectFormats(_ bytes: [UInt8], _ index: inout Int, into formats: inout Set<String>) {
        let format = bytes[index]
        index += 1
        func length(_ size: Int) -> Int {
            var value = 0
            for _ in 0..<size {
                value = value << 8 | Int(bytes[index])
                index += 1
            }
            return value
        }
        switch format {
        case 0x00...0x7F: formats.insert("positive fixint")
        case 0xE0...0xFF: formats.insert("negative fixint")
        case 0x80...0x8F:
            formats.insert("fixmap")
            for _ in 0..<(Int(format & 0x0F) * 2) { collectFormats(bytes, &index, into: &formats) }
        case 0x90...0x9F:
            formats.insert("fixarray")
            for _ in 0..<Int(format & 0x0F) { collectFormats(bytes, &index, into: &formats) }
        case 0xA0...0xBF:
            formats.insert("fixstr")
            index += Int(format & 0x1F)
        case 0xC0: formats.insert("nil")
        case 0xC2: formats.insert("false")
        case 0xC3: formats.insert("true")
        case 0xC4:
            formats.insert("bin 8")
            index += length(1)
        case 0xCC:
            formats.insert("uint 8")
            index += 1
        case 0xCD:
            formats.insert("uint 16")
            index += 2
        case 0xD9:
            formats.insert("str 8")
            index += length(1)
        default:
            formats.insert(String(format, radix: 16))
            index = bytes.count
        }
    }
}
