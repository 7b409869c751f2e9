import XCTest
@testable import PubSubClient

/// The session with a codec other than JSON: binary frames out, pings still text, and a frame of
/// the wrong type before the handshake reported as a codec mismatch.
final class CodecSessionTests: XCTestCase {
    private func minBinHarness() -> SessionHarness {
        SessionHarness(
            configuration: SessionConfiguration(
                address: ServerAddress(hostname: "127.0.0.1", port: 8000), protocolVersion: .automatic,
                codec: MinBinPacketCodec(), autoReconnect: false))
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
}
