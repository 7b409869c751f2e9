import XCTest
import PubSubProtocol

/// `Packet.serializedPublication`: a client's `#publish` written without building its data
/// object must be, byte for byte, the packet that carries that object.
final class PublicationSerializationTests: XCTestCase {
    func testPublicationIsWrittenAsThePacketWithItsDataObject() {
        let channels = ["news", "", "a\"b\\c/d", "caf\u{e9} \u{1F600}", "line\nbreak\u{1}"]
        let values: [JSONValue?] = [
            nil, .null, "text", 42, -1.5, true, ["z": 1, "a": ["y": [1, "two", nil]], "channel": "inner"], [1, 2, 3],
        ]
        for channel in channels {
            for data in values {
                var members: [String: JSONValue] = ["channel": .string(channel)]
                if let data { members["data"] = data }
                for cid: Int64? in [nil, 0, 7, .max, .min] {
                    let expected: Packet =
                        cid.map { .invoke(event: "#publish", data: .object(members), cid: $0) }
                        ?? .transmit(event: "#publish", data: .object(members))
                    XCTAssertEqual(
                        String(decoding: Packet.serializedPublication(channel: channel, data: data, cid: cid), as: UTF8.self),
                        expected.serialized(keyOrder: .client), "channel \(channel), data \(String(describing: data)), cid \(String(describing: cid))")
                }
            }
        }
    }
}
