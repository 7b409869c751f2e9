/// One element of an inbound message, as the server classifies it (Protocol.md §2, v18.1+ rules).
enum InboundItem: Sendable {
    /// `event` is a string; `cid` is set only when it is a number (else the packet is a transmit).
    case event(String, data: JSONValue?, cid: Int64?)
    /// `rid` is a number; an `error` that is present and not `null` wins over `data`.
    case response(rid: Int64, result: Result<JSONValue?, RemoteError>)
    /// Anything else (not an object, or an object with neither).
    case raw

    /// Classifies a text frame that is not the pong: `nil` when it is not JSON (a raw string),
    /// else its packets (one, or each element of a batch array).
    static func classify(_ text: String) -> [InboundItem]? {
        items(of: InboundFrame(text: text))
    }

    /// Classifies a binary frame, decoded as UTF-8: JSON packets or `nil` (never a ping or pong).
    static func classify(utf8 bytes: [UInt8]) -> [InboundItem]? {
        items(of: InboundFrame(utf8: bytes))
    }

    private static func items(of frame: InboundFrame) -> [InboundItem]? {
        // Pings and pongs of the other protocol version are plain strings to the server.
        guard case .packets(let packets) = frame else { return nil }
        return packets.map(InboundItem.init(packet:))
    }

    init(packet: Packet) {
        switch packet {
        case .transmit(let event, let data):
            self = .event(event, data: data, cid: nil)
        case .invoke(let event, let data, let cid):
            self = .event(event, data: data, cid: cid)
        case .response(let rid, let result):
            self = .response(rid: rid, result: result)
        case .raw:
            self = .raw
        }
    }
}
