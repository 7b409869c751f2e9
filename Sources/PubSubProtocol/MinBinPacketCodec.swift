/// `sc-codec-min-bin` 3.0.0: each packet MessagePack (msgpack-lite's choices) in a binary
/// message, with the packet keys compressed as that codec does, so messages are byte-identical
/// to a JavaScript peer's (socketcluster-server 19.1.1, socketcluster-client 20.0.2):
///
/// - `#publish` with data: `{"p":[channel, data]}`, or `{"p":[channel, data, cid]}` as an invoke;
/// - any other event: `{"e":[event, data]}`, or `{"e":[event, data, cid]}` as an invoke;
/// - a response: `{"r":[rid, error, data]}`, always three elements;
/// - a batch: a MessagePack array of such packets.
///
/// Absent and null are both nil on the wire, so a receiver sees no data for either. Binary data
/// (``JSONValue/binary(_:)``) travels as a MessagePack bin, as a JavaScript `ArrayBuffer` does.
/// The long form (`{"event":…,"data":…,"cid":…}` in MessagePack) is read too, and a short array
/// may lack trailing elements (`{"e":["echo"]}` is a transmit with no data).
///
/// A text message is never decoded (``decode(_:kind:maximumValues:)`` returns `nil`): a
/// socketcluster-server with this codec closes with 4009 when one arrives before the handshake
/// and drops it afterwards, and `PubSubBroker` does the same.
public struct MinBinPacketCodec: PacketCodec, ServerResponseEncoding {
    /// Largest message accepted, in bytes, and deepest nesting: those of the decoder (defaults
    /// ``MessagePackDecoder/defaultMaximumInputSize``, ``JSONValue/defaultMaximumDepth``).
    /// The value count is the receiver's `maximumValues` when smaller than the decoder's.
    public var decoder: MessagePackDecoder

    /// The min-bin codec, reading with `decoder`'s limits.
    public init(decoder: MessagePackDecoder = MessagePackDecoder()) {
        self.decoder = decoder
    }

    /// Binary.
    public var messageKind: PacketMessageKind { .binary }

    /// The packet in its short form (see the type's overview); `keyOrder` does not apply.
    public func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8] {
        var encoder = MessagePackEncoder(capacity: 64)
        do throws(MessagePackEncodingError) {
            try Self.write(packet, to: &encoder)
        } catch {
            // Only a string, bin, array or map of 2³² or more elements fails: no message limit
            // lets such a value arrive, so nil stands in for the packet.
            return [0xC0]
        }
        return encoder.bytes
    }

    /// A MessagePack array header followed by the encoded packets.
    public func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8] {
        var encoder = MessagePackEncoder(capacity: encodedPackets.reduce(5) { $0 + $1.count })
        try? encoder.encodeArrayHeader(count: encodedPackets.count)
        var bytes = encoder.bytes
        for packet in encodedPackets { bytes.append(contentsOf: packet) }
        return bytes
    }

    /// The packets of a binary message, expanded as `sc-codec-min-bin` expands them; `nil` for a
    /// text message, for bytes that are not one MessagePack document, or a lone value that is
    /// not a packet.
    public func decode(
        _ message: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, maximumValues: Int
    ) throws(PacketDecodingError) -> [InboundPacket]? {
        guard kind == .binary else { return nil }
        var limited = decoder
        limited.maximumValueCount = Swift.min(decoder.maximumValueCount, maximumValues)
        let value: JSONValue
        do throws(MessagePackDecodingError) {
            value = try limited.decode(message)
        } catch {
            switch error.reason {
            case .tooManyValues(let limit): throw PacketDecodingError(.tooManyValues(limit: limit))
            case .nestingTooDeep, .inputTooLarge: throw PacketDecodingError(.limitExceeded(error.description))
            default: return nil
            }
        }
        if case .array(let elements) = value {
            return elements.map { InboundPacket(packet: Packet(classifying: Self.expanded($0))) }
        }
        let packet = Packet(classifying: Self.expanded(value))
        if case .raw = packet { return nil }
        return [InboundPacket(packet: packet)]
    }

    /// Handshake answer with `data` members `id`, `pingTimeout`, `authError` (when set),
    /// `isAuthenticated`, as socketcluster-server writes it.
    package func encodeHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8] {
        var encoder = MessagePackEncoder(capacity: 96)
        do throws(MessagePackEncodingError) {
            try Self.writeResponseHeader(rid: rid, to: &encoder)
            try encoder.encodeMapHeader(count: response.authError == nil ? 3 : 4)
            try encoder.encodeString("id")
            try encoder.encodeString(response.id)
            try encoder.encodeString("pingTimeout")
            encoder.encodeInteger(response.pingTimeout)
            if let authError = response.authError {
                try encoder.encodeString("authError")
                try Self.write(error: authError, to: &encoder)
            }
            try encoder.encodeString("isAuthenticated")
            encoder.encodeBool(response.isAuthenticated)
        } catch {
            return [0xC0]
        }
        return encoder.bytes
    }

    /// Authenticate answer with `data` members `isAuthenticated`, `authError`, as
    /// socketcluster-server writes it.
    package func encodeAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8] {
        var encoder = MessagePackEncoder(capacity: 64)
        do throws(MessagePackEncodingError) {
            try Self.writeResponseHeader(rid: rid, to: &encoder)
            try encoder.encodeMapHeader(count: 2)
            try encoder.encodeString("isAuthenticated")
            encoder.encodeBool(response.isAuthenticated)
            try encoder.encodeString("authError")
            if let authError = response.authError {
                try Self.write(error: authError, to: &encoder)
            } else {
                encoder.encodeNil()
            }
        } catch {
            return [0xC0]
        }
        return encoder.bytes
    }

    // MARK: Compression

    /// `{"r":[rid, nil, ` — the start of a successful response whose data follows.
    private static func writeResponseHeader(rid: Int64, to encoder: inout MessagePackEncoder) throws(MessagePackEncodingError) {
        try encoder.encodeMapHeader(count: 1)
        try encoder.encodeString("r")
        try encoder.encodeArrayHeader(count: 3)
        encoder.encodeInteger(rid)
        encoder.encodeNil()
    }

    private static func write(_ packet: Packet, to encoder: inout MessagePackEncoder) throws(MessagePackEncodingError) {
        switch packet {
        case .transmit(let event, let data):
            try writeEvent(event, data: data, cid: nil, to: &encoder)
        case .invoke(let event, let data, let cid):
            try writeEvent(event, data: data, cid: cid, to: &encoder)
        case .response(let rid, let result):
            try encoder.encodeMapHeader(count: 1)
            try encoder.encodeString("r")
            try encoder.encodeArrayHeader(count: 3)
            encoder.encodeInteger(rid)
            switch result {
            case .success(let data):
                encoder.encodeNil()
                try writeOptional(data, to: &encoder)
            case .failure(let error):
                try write(error: error, to: &encoder)
                encoder.encodeNil()
            }
        case .raw(let value):
            try encoder.encode(value)
        }
    }

    private static func writeEvent(
        _ event: String, data: JSONValue?, cid: Int64?, to encoder: inout MessagePackEncoder
    ) throws(MessagePackEncodingError) {
        try encoder.encodeMapHeader(count: 1)
        let count = cid == nil ? 2 : 3
        if event == BuiltInEvent.publish, let data, !data.isNull {
            try encoder.encodeString("p")
            try encoder.encodeArrayHeader(count: count)
            try writeOptional(data["channel"], to: &encoder)
            try writeOptional(data["data"], to: &encoder)
        } else {
            try encoder.encodeString("e")
            try encoder.encodeArrayHeader(count: count)
            try encoder.encodeString(event)
            try writeOptional(data, to: &encoder)
        }
        if let cid { encoder.encodeInteger(cid) }
    }

    private static func writeOptional(_ value: JSONValue?, to encoder: inout MessagePackEncoder) throws(MessagePackEncodingError) {
        if let value { try encoder.encode(value) } else { encoder.encodeNil() }
    }

    /// An error dehydrated as sc-errors does: `message`, `name`, then the other fields sorted.
    private static func write(error: RemoteError, to encoder: inout MessagePackEncoder) throws(MessagePackEncodingError) {
        let payload = error.dehydrated()
        if case .object(let members) = payload {
            try encoder.encodeObject(members, leadingKeys: ["message", "name"])
        } else {
            try encoder.encode(payload)
        }
    }

    // MARK: Expansion

    /// The long form of one decoded element, as `sc-codec-min-bin` 3.0.0 expands it: `e` →
    /// event, data, and cid when not nil; `p` → `#publish` with `{channel, data}` and cid; `r` →
    /// rid, error, data. Nil members are left out. Anything else is returned unchanged.
    static func expanded(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        func element(_ array: [JSONValue], _ index: Int) -> JSONValue? {
            guard index < array.count, !array[index].isNull else { return nil }
            return array[index]
        }
        if case .array(let short)? = members["e"] {
            var long: [String: JSONValue] = [:]
            long["event"] = element(short, 0)
            long["data"] = element(short, 1)
            long["cid"] = element(short, 2)
            return .object(long)
        }
        if case .array(let short)? = members["p"] {
            var payload: [String: JSONValue] = [:]
            payload["channel"] = element(short, 0)
            payload["data"] = element(short, 1)
            var long: [String: JSONValue] = ["event": .string(BuiltInEvent.publish), "data": .object(payload)]
            long["cid"] = element(short, 2)
            return .object(long)
        }
        if case .array(let short)? = members["r"] {
            var long: [String: JSONValue] = [:]
            long["rid"] = element(short, 0)
            long["error"] = element(short, 1)
            long["data"] = element(short, 2)
            return .object(long)
        }
        return value
    }
}
