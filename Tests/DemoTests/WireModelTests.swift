// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import PubSubProtocol
import XCTest

/// The snippet of the PubSubProtocol catalog's WireModel article, run as written.
final class WireModelTests: XCTestCase {
    func testWireModelSnippetRoundTrips() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        func snippet() {
            let frame = InboundFrame(text: ##"{"event":"#publish","data":{"channel":"news","data":"hi"}}"##)
            if case .packets(let packets) = frame, case .transmit(let event, let data) = packets[0] {
                print(event, data?["channel"]?.stringValue ?? "")    // #publish news
            }

            let invoke = Packet.invoke(event: "echo", data: ["text": "hello"], cid: 1)
            print(invoke.serialized())                           // {"event":"echo","data":{"text":"hello"},"cid":1}
        }
        snippet()
        XCTAssertEqual(printed, ["#publish news", #"{"event":"echo","data":{"text":"hello"},"cid":1}"#])
    }
}
