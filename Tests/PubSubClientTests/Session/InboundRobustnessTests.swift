import XCTest
@testable import PubSubClient

/// Bad input from the network never crashes the session and never closes a connection the JS
/// client would keep.
final class InboundRobustnessTests: XCTestCase {
    /// Every frame of every `raw-*` probe (malformed packets, odd cids, batches, invalid JSON),
    /// fed to an open session as if the server had sent it.
    func testEveryRawProbeFrameIsSurvived() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Recording.directory.path)
            .filter { $0.hasPrefix("raw-") }.sorted()
        XCTAssertGreaterThan(files.count, 30)
        var harness = SessionHarness()
        harness.open()
        var fed = 0
        for file in files {
            for frame in try Recording.load(file) {
                switch frame {
                case .clientText(let text), .serverText(let text):
                    harness.receive(text)
                    fed += 1
                case .clientBinary(let base64), .serverBinary(let base64):
                    harness.session.transportReceived(
                        binary: [UInt8](Data(base64Encoded: base64) ?? Data()),
                        from: harness.transport!, now: harness.now)
                    harness.drain()
                case .clientClose, .serverClose:
                    break
                }
                // Server invokes in these frames are answered so requests do not pile up.
                for case .request(let request) in harness.takeEvents() {
                    try? harness.session.respond(to: request.id, with: .success(nil), now: harness.now)
                }
            }
        }
        XCTAssertGreaterThan(fed, 100)
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertTrue(harness.closes.isEmpty)
    }

    func testArbitraryTextNeverCrashesOrCloses() {
        var harness = SessionHarness(configuration: SessionHarness.configuration(protocolVersion: .automatic))
        harness.open()
        var generator = SplitMix64(seed: 0x5eed)
        let alphabet = Array(#"{}[]":,0123456789.-+eEtrufalsnu\ "abc#ridcventdatæ€𝄞"#.unicodeScalars)
        for _ in 0..<20_000 {
            var text = ""
            let length = Int(generator.next() % 40)
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            harness.receive(text)
            harness.events.removeAll(keepingCapacity: true)
            harness.sent.removeAll(keepingCapacity: true)
        }
        for _ in 0..<2_000 {
            let bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            harness.session.transportReceived(binary: bytes, from: harness.transport!, now: harness.now)
            harness.receive(String(decoding: bytes, as: UTF8.self))
        }
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertTrue(harness.closes.isEmpty)
    }

    func testStructurallyOddPacketsAreHandled() {
        var harness = SessionHarness()
        harness.open()
        harness.events = []
        harness.sent = []
        for text in [
            #"{"rid":"2"}"#, #"{"rid":2.5}"#, #"{"event":5}"#, #"{"event":"x","cid":"5"}"#, #"[[1],[{"event":"y"}]]"#,
            ##"{"event":"#setAuthToken","data":{"token":5}}"##, ##"{"event":"#publish"}"##, "  \n{\"event\":\"ws\"}",
            #"{"rid":1,"error":null,"data":3}"#, "[]", "null", "#2",
        ] {
            harness.receive(text)
        }
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertTrue(harness.sent.isEmpty, "nothing is answered: \(harness.sent)")
        XCTAssertTrue(harness.events.contains(.message(.init(event: "x", data: nil))), "a non-numeric cid makes a transmit")
        XCTAssertTrue(harness.events.contains(.message(.init(event: "ws", data: nil))), "leading whitespace is allowed")
    }
}

/// A small deterministic generator for reproducible fuzzing.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation
