import XCTest
import PubSubProtocol

/// Seeded random inputs: nothing from the network may crash the parser or the classifier.
final class MalformedInputTests: XCTestCase {
    private let seeds: [String] = [
        ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##,
        #"{"rid":1,"data":{"id":"HD6PK6Misy-HdvFLAAAA","pingTimeout":20000,"isAuthenticated":false}}"#,
        #"{"rid":5,"error":{"message":"Nope","name":"CustomError","code":42}}"#,
        #"[{"event":"chat","data":1},{"event":"chat","data":2.5e-3},{"rid":3}]"#,
        ##"{"event":"#publish","data":{"channel":"room","data":{"msg":"h\u00e9\ud83d\ude00","bin":{"base64":true,"data":"aGVsbG8="}}}}"##,
        "#1", "#2", "",
    ]

    func testRandomBytesNeverCrash() {
        var generator = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<5000 {
            let length = Int(generator.next() % 64)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if generator.next() % 2 == 0, !bytes.isEmpty { bytes[0] = UInt8(ascii: "{") }
            if generator.next() % 4 == 0, !bytes.isEmpty { bytes[0] = UInt8(ascii: "[") }
            _ = try? JSONValue(parsing: bytes)
            assertConsistent(InboundFrame(utf8: bytes))
        }
    }

    func testRandomJSONTokenSoupNeverCrashes() {
        let tokens = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "d800", "-", "0", "1", "e", ".", "+",
            "true", "null", "\"event\"", "\"cid\"", "\"rid\"", "\"error\"", " ", "\n", "é", "\u{0}",
        ]
        var generator = SplitMix64(seed: 99)
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 40) { text += tokens[Int(generator.next() % UInt64(tokens.count))] }
            if let value = try? JSONValue(parsing: text) {
                XCTAssertEqual(try JSONValue(parsing: value.serialized()), value, text)
            }
            assertConsistent(InboundFrame(text: text))
        }
    }

    func testRandomMutationsOfValidPacketsNeverCrash() {
        var generator = SplitMix64(seed: 2026)
        var parsedCount = 0
        for iteration in 0..<20_000 {
            var bytes = Array(seeds[iteration % seeds.count].utf8)
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 5 {
                case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1 where !bytes.isEmpty: bytes.remove(at: position)
                case 2: bytes.insert(UInt8(truncatingIfNeeded: generator.next() % 128), at: position)
                case 3: bytes = Array(bytes.prefix(position))
                default:
                    let structural = Array(#"{}[]",:0-e."#.utf8)
                    if !bytes.isEmpty { bytes[position] = structural[Int(generator.next() % UInt64(structural.count))] }
                }
            }
            if let value = try? JSONValue(parsing: bytes) {
                parsedCount += 1
                XCTAssertEqual(try JSONValue(parsing: value.serialized()), value)
            }
            let frame = InboundFrame(utf8: bytes)
            assertConsistent(frame)
            if case .packets(let packets) = frame {
                XCTAssertEqual(InboundFrame(utf8: packets.serializedBytes()), .packets(packets))
            }
        }
        XCTAssertGreaterThan(parsedCount, 100, "mutations should sometimes stay valid")
    }

    func testTruncationsOfEveryRecordedFrameNeverCrash() throws {
        for file in try RecordedFrame.allFiles().prefix(20) {
            for frame in try RecordedFrame.load(file) {
                guard let text = frame.text else { continue }
                let bytes = Array(text.utf8)
                for cut in 0..<bytes.count {
                    assertConsistent(InboundFrame(utf8: bytes[0..<cut]))
                }
            }
        }
    }

    func testHugeNumbersAndStringsAreHandled() throws {
        let longDigits = String(repeating: "9", count: 10_000)
        XCTAssertEqual(try JSONValue(parsing: longDigits), .double(.infinity))
        XCTAssertEqual(try JSONValue(parsing: "0." + longDigits + "e-99999999999999999999").doubleValue, 0)
        XCTAssertEqual(try JSONValue(parsing: "1e99999999999999999999"), .double(.infinity))
        let longString = "\"" + String(repeating: "a\\n", count: 100_000) + "\""
        XCTAssertEqual(try JSONValue(parsing: longString).stringValue?.count, 200_000)
    }

    func testHandshakeResponseRejectsMalformedData() {
        XCTAssertThrowsError(try HandshakeResponse(parsing: nil))
        XCTAssertThrowsError(try HandshakeResponse(parsing: "x"))
        XCTAssertThrowsError(try HandshakeResponse(parsing: ["pingTimeout": 1000]))
        XCTAssertThrowsError(try HandshakeResponse(parsing: ["id": "a", "pingTimeout": "soon"]))
        XCTAssertThrowsError(try HandshakeResponse(parsing: ["id": "a", "pingTimeout": -1]))
        XCTAssertThrowsError(try HandshakeResponse(parsing: ["id": "a", "pingTimeout": 1e300]))
        XCTAssertThrowsError(try HandshakeResponse(parsing: ["id": "a", "pingTimeout": 1, "isAuthenticated": 1]))
        XCTAssertEqual(
            try HandshakeResponse(parsing: ["id": "a", "pingTimeout": 1]),
            HandshakeResponse(id: "a", pingTimeout: 1, isAuthenticated: false))
        XCTAssertThrowsError(try AuthenticateResponse(parsing: ["authError": nil])) { error in
            XCTAssertEqual("\(error)", "Authenticate response has no boolean isAuthenticated")
        }
        let response = HandshakeResponse(
            id: "abc", pingTimeout: 20000, isAuthenticated: false,
            authError: RemoteError(name: "AuthTokenInvalidError", message: "invalid token", fields: ["isBadToken": true]))
        XCTAssertEqual(try HandshakeResponse(parsing: try JSONValue(parsing: response.serializedResponse(rid: 1))["data"]), response)
    }

    private func assertConsistent(_ frame: InboundFrame, file: StaticString = #filePath, line: UInt = #line) {
        if case .packets(let packets) = frame {
            for packet in packets {
                if case .invoke(_, _, let cid) = packet {
                    XCTAssertEqual(
                        Packet(classifying: packet.jsonValue), .invoke(event: packet.eventName ?? "", data: packet.data, cid: cid), file: file, line: line)
                }
            }
        }
    }
}

extension Packet {
    fileprivate var eventName: String? {
        switch self {
        case .transmit(let event, _), .invoke(let event, _, _): return event
        default: return nil
        }
    }

    fileprivate var data: JSONValue? {
        switch self {
        case .transmit(_, let data), .invoke(_, let data, _): return data
        default: return nil
        }
    }
}
