import XCTest
@testable import PubSubClient
import TestSupport

/// With the JSON codec the session writes and reads packets directly (no call through
/// `any PacketCodec`, publications written without a dictionary). A codec of another type that
/// wraps the JSON codec takes the general path: both must send the same frames and report the
/// same events for the same inputs.
final class JSONCodecDirectPathTests: XCTestCase {
    /// The JSON codec behind another type, so the session cannot recognise it.
    private struct WrappedJSONCodec: PacketCodec {
        var messageKind: PacketMessageKind { .text }

        func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8] {
            JSONPacketCodec().encode(packet, keyOrder: keyOrder)
        }

        func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8] {
            JSONPacketCodec().encodeBatch(encodedPackets)
        }

        func decode(
            _ message: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, maximumValues: Int
        ) throws(PacketDecodingError) -> [InboundPacket]? {
            try JSONPacketCodec().decode(message, kind: kind, maximumValues: maximumValues)
        }
    }

    private func harness(_ codec: any PacketCodec, channelPrefix: String?) -> SessionHarness {
        var configuration = SessionHarness.configuration(channelPrefix: channelPrefix)
        configuration.codec = codec
        return SessionHarness(configuration: configuration)
    }

    /// Publishes of every shape, queued and sent, alone and batched, then the server's answers.
    private func script(_ harness: inout SessionHarness) {
        let values: [JSONValue?] = [nil, "text", 7, ["b": 2, "a": ["x", nil, 1.5]], "quote\" and \u{e9}"]
        for (index, value) in values.enumerated() {
            try? harness.session.publish("queued/\(index)", data: value, now: harness.now)
            _ = harness.session.publishWithAck("queued/ack/\(index)", data: value, now: harness.now)
        }
        harness.drain()
        harness.open()
        for (index, value) in values.enumerated() {
            _ = harness.session.publishWithAck("open/\(index)", data: value, now: harness.now)
            try? harness.session.publish("open/\"\(index)", data: value, now: harness.now)
            _ = harness.session.invoke("echo", data: value, now: harness.now)
            try? harness.session.transmit("note", data: value, now: harness.now)
        }
        harness.session.startBatch()
        _ = harness.session.publishWithAck("batched", data: "in a batch", now: harness.now)
        try? harness.session.publish("batched", data: nil, now: harness.now)
        _ = harness.session.invoke("echo", data: 1, now: harness.now)
        harness.session.flushBatch()
        harness.drain()
        harness.session.subscribe("room", now: harness.now)
        harness.drain()
        harness.receive(#"{"rid":\#(harness.lastSentCid())}"#)
        for cid in 2...20 { harness.receive(#"{"rid":\#(cid),"data":{"n":\#(cid)}}"#) }
        harness.receive(#"{"rid":21,"error":{"name":"E","message":"m"}}"#)
        harness.receive(##"{"event":"#publish","data":{"channel":"room","data":{"k":[1,2]}}}"##)
        harness.receive(##"[{"event":"#publish","data":{"channel":"p/room","data":"x"}},{"event":"ask","data":1,"cid":5}]"##)
        harness.receive(#"{"event":"note","data":null}"#)
        harness.receive("not json")
    }

    func testJSONCodecSendsAndReportsWhatTheGeneralCodecPathDoes() {
        for prefix in [nil, "p/"] {
            var direct = harness(JSONPacketCodec(), channelPrefix: prefix)
            var general = harness(WrappedJSONCodec(), channelPrefix: prefix)
            XCTAssertTrue(direct.session.usesJSONCodec)
            XCTAssertFalse(general.session.usesJSONCodec)
            script(&direct)
            script(&general)
            XCTAssertGreaterThan(direct.sent.count, 30)
            XCTAssertEqual(direct.sent, general.sent, "prefix \(prefix ?? "none")")
            XCTAssertEqual(direct.events, general.events, "prefix \(prefix ?? "none")")
            XCTAssertEqual(direct.completionOrder, general.completionOrder)
            let published = #""channel":"\#(prefix ?? "")open/3","data":{"a":["x",null,1.5],"b":2}}"#
            XCTAssertTrue(direct.sent.contains { $0.contains(published) }, "a publication's data object is sorted")
        }
    }
}
