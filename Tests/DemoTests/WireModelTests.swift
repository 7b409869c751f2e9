// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import PubSubProtocol
import XCTest

/// The snippet of the PubSubProtocol catalog's WireModel article, run as written.
final class WireModelTests: XCTestCase {
    func testWireModelSnippetRoundTrips() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        func snippet() throws {
            let codec = JSONPacketCodec()
            let invoke = Packet.invoke(event: "echo", data: ["text": "hello"], cid: 1)
            print(String(decoding: codec.encode(invoke, keyOrder: .client), as: UTF8.self))
            // {"event":"echo","data":{"text":"hello"},"cid":1}

            let message = Array(##"{"event":"#publish","data":{"channel":"news","data":"hi"}}"##.utf8)
            let packets = try message.withUnsafeBufferPointer { bytes throws(PacketDecodingError) in
                try codec.decode(bytes, kind: .text, maximumValues: 1_000)
            }
            if case .transmit(let event, let data)? = packets?.first?.packet {
                print(event, data?["channel"]?.stringValue ?? "")    // #publish news
            }
        }
        try snippet()
        XCTAssertEqual(printed, [#"{"event":"echo","data":{"text":"hello"},"cid":1}"#, "#publish news"])
    }
}
