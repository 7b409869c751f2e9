import XCTest
@testable import PubSubClient
import TestSupport

/// The session with a codec other than JSON: binary frames out, pings still text, and a frame of
/// the wrong type before the handshake reported as a codec mismatch.
final class CodecSessionTests: XCTestCase {
    private func minBinHarness() -> SessionHarness {
        SessionHarness(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 8000))) {
                $0.protocolVersion = .automatic
                $0.codec = MinBinPacketCodec()
                $0.autoReconnect = false
            })
    }

    func testMinBinSessionSendsItsHandshakeAsABinaryFrame() {
        var harness = minBinHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        XCTAssertEqual(harness.sent, [])
        XCTAssertEqual(harness.sentBinary.first.map { Data($0).base64EncodedString() }, "gaFlk6ojaGFuZHNoYWtlgalhdXRoVG9rZW7AAQ==")
    }

    func testMinBinSessionAnswersTextPingsWithTextPongs() {
        var harness = minBinHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive("#1")
        harness.receive("")
        XCTAssertEqual(harness.sent, ["#2", ""])
    }

    func testAPingOfTheOtherProtocolBeforeTheHandshakeIsNoCodecMismatch() {
        var harness = SessionHarness(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 8000))) {
                $0.protocolVersion = .v2
                $0.codec = MinBinPacketCodec()
                $0.autoReconnect = false
            })
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive("#1")
        XCTAssertTrue(harness.closes.isEmpty)
        XCTAssertTrue(harness.events.contains(.raw(.text("#1"))))
    }

    func testTextFrameBeforeTheHandshakeIsACodecMismatchForMinBin() {
        var harness = minBinHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        harness.receive(#"{"rid":1,"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":false}}"#)
        XCTAssertTrue(harness.events.contains(.error(.codecMismatch(expected: .binary, received: .text))))
        XCTAssertEqual(harness.closes.last?.code, 1003)
        XCTAssertEqual(harness.session.state, .closed)
    }

    func testBinaryFrameBeforeTheHandshakeIsACodecMismatchForJSON() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        guard let transport = harness.transport else { return XCTFail("no transport") }
        harness.session.transportReceived(binary: [0x81, 0xA1, 0x72, 0x93, 0x01, 0xC0, 0xC0], from: transport, now: harness.now)
        harness.drain()
        XCTAssertTrue(harness.events.contains(.error(.codecMismatch(expected: .text, received: .binary))))
        XCTAssertEqual(harness.closes.last?.code, 1003)
    }

    func testBinaryFrameAfterTheHandshakeStaysARawMessageForJSON() {
        var harness = SessionHarness()
        harness.open()
        guard let transport = harness.transport else { return XCTFail("no transport") }
        harness.session.transportReceived(binary: [1, 2], from: transport, now: harness.now)
        harness.drain()
        XCTAssertTrue(harness.events.contains(.raw(.binary(Data([1, 2])))))
        XCTAssertEqual(harness.session.state, .open)
    }

    func testEveryMinBinRecordedFrameAndRandomBytesAreSurvived() throws {
        var harness = minBinHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        harness.openTransport()
        let transport = try XCTUnwrap(harness.transport)
        let handshake = try XCTUnwrap(Data(base64Encoded: "gaFykwHAg6JpZLRvZnE1U3E2SmU3cWV5a1E4QUFBQatwaW5nVGltZW91dM1OIK9pc0F1dGhlbnRpY2F0ZWTC"))
        harness.session.transportReceived(binary: [UInt8](handshake), from: transport, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.session.state, .open)
        var fed = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: Recording.minBinDirectory.path).filter({ $0.hasSuffix(".jsonl") }) {
            for frame in try Recording.load(file, from: Recording.minBinDirectory) {
                switch frame {
                case .clientBinary(let base64), .serverBinary(let base64):
                    harness.session.transportReceived(binary: [UInt8](Data(base64Encoded: base64) ?? Data()), from: transport, now: harness.now)
                    fed += 1
                default:
                    continue
                }
                harness.drain()
                for case .request(let request) in harness.takeEvents() {
                    try? harness.session.respond(to: request.id, with: .success(nil), now: harness.now)
                }
            }
        }
        var generator = SplitMix64(seed: 0xB1)
        for _ in 0..<5_000 {
            var bytes = (0..<Int(generator.next() % 48)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if generator.next() % 2 == 0 { bytes.insert(contentsOf: [0x81, 0xA1, [0x65, 0x70, 0x72][Int(generator.next() % 3)], 0x93], at: 0) }
            harness.session.transportReceived(binary: bytes, from: transport, now: harness.now)
            harness.drain()
            harness.events.removeAll(keepingCapacity: true)
        }
        XCTAssertGreaterThan(fed, 300)
        XCTAssertEqual(harness.session.state, .open)
        XCTAssertTrue(harness.closes.isEmpty)
    }
}
