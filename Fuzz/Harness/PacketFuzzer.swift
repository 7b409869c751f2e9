import PubSubProtocol

/// SocketCluster classification of an inbound frame (ping, pong, packets, raw).
///
/// Input: all bytes are the frame. Checks: the byte and the text entry points agree on valid
/// UTF-8; every classified packet, serialized as we send it, classifies back to the same kind
/// of packet with an equivalent JSON value.
enum PacketFuzzer {
    static let name = "packet"

    static func run(_ raw: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let bytes = Array(raw)
        let frame = InboundFrame(utf8: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        if Array(text.utf8) == bytes {
            let fromText = InboundFrame(text: text)
            try require(fromText == frame, name, "bytes give \(frame), text gives \(fromText)")
        }
        guard case .packets(let packets) = frame else { return }
        for packet in packets {
            if case .raw = packet { continue }
            let again = InboundFrame(text: packet.serialized())
            guard case .packets(let back) = again, back.count == 1, sameKind(packet, back[0]),
                JSONFuzzer.equivalent(packet.jsonValue, back[0].jsonValue)
            else {
                throw FuzzFinding(name, "\(packet) serialized as \(packet.serialized()) classifies as \(again)")
            }
        }
    }

    static func sameKind(_ a: Packet, _ b: Packet) -> Bool {
        switch (a, b) {
        case (.transmit, .transmit), (.invoke, .invoke), (.raw, .raw): return true
        case (.response(_, .success), .response(_, .success)), (.response(_, .failure), .response(_, .failure)): return true
        default: return false
        }
    }
}
