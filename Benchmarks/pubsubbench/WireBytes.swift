import BenchSupport
import PubSubClient

/// The bytes one message of a run puts on the wire with the run's codec: the payloads of the
/// WebSocket messages of its exchange (framing excluded), for message 0 with a two-digit cid.
/// invoke modes: the invoke and its answer; publish-own: the publish invoke, the publication and
/// the answer; publish-fanout and channel-flood: the publisher's transmit and one subscriber's
/// publication.
enum WireBytes {
    static func perMessage(_ options: PubSubBenchOptions, channel: String) -> Int? {
        let codec = options.codec.codec
        let data = Payloads(size: options.size).values[0]
        let publication: JSONValue = ["channel": .string(channel), "data": data]
        func size(_ packet: Packet, _ order: PacketKeyOrder) -> Int { codec.encode(packet, keyOrder: order).count }
        switch options.mode {
        case .invokeRTT, .invokePipeline:
            return size(.invoke(event: "echo", data: data, cid: 10), .client) + size(.response(rid: 10, result: .success(data)), .server)
        case .publishOwn:
            return size(.invoke(event: "#publish", data: publication, cid: 10), .client)
                + size(.transmit(event: "#publish", data: publication), .server)
                + size(.response(rid: 10, result: .success(nil)), .server)
        case .publishFanout, .channelFlood:
            return size(.transmit(event: "#publish", data: publication), .client) + size(.transmit(event: "#publish", data: publication), .server)
        case .connections, .floodedApp:
            return nil
        }
    }
}

extension BenchReport {
    /// Adds `codec` and, where the mode has one, `wire_bytes_per_msg` (see `WireBytes`).
    mutating func addCodec(_ options: PubSubBenchOptions, channel: String = "") {
        add("codec", options.codec.rawValue)
        if let bytes = WireBytes.perMessage(options, channel: channel) { add("wire_bytes_per_msg", bytes) }
    }
}

/// `--codec`: the packet codec of the client and the embedded broker.
enum BenchCodec: String, Sendable, CaseIterable {
    case json
    case minBin = "min-bin"

    var codec: any PacketCodec {
        switch self {
        case .json: return JSONPacketCodec()
        case .minBin: return MinBinPacketCodec()
        }
    }
}
