/// SocketCluster's default codec: each packet a JSON object, a batch a JSON array, in text
/// messages (Protocol.md §2). Writes exactly what socketcluster-client and socketcluster-server
/// write. It reads binary messages too, as UTF-8 JSON, as socketcluster-server does.
public struct JSONPacketCodec: PacketCodec, ServerResponseEncoding {
    /// The JSON codec.
    public init() {}

    /// Text.
    public var messageKind: PacketMessageKind { .text }

    /// The packet as UTF-8 JSON, its members in `keyOrder`'s order.
    public func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8] {
        packet.serializedBytes(keyOrder: keyOrder)
    }

    /// `[p1,p2,…]`.
    public func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8] {
        Packet.batchFrame(encodedPackets)
    }

    /// The packet object or batch array of a JSON message; a text message's UTF-8 is taken as
    /// already validated (WireKit validates text messages).
    public func decode(
        _ message: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, maximumValues: Int
    ) throws(PacketDecodingError) -> [InboundPacket]? {
        do throws(JSONParseError) {
            return try InboundPacket.parseFrame(message, isValidUTF8: kind == .text, maximumValues: maximumValues)
        } catch {
            if case .tooManyValues(let limit) = error.reason { throw PacketDecodingError(.tooManyValues(limit: limit)) }
            return nil
        }
    }

    /// socketcluster-server's handshake answer, byte for byte.
    package func encodeHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8] {
        Array(response.serializedResponse(rid: rid).utf8)
    }

    /// socketcluster-server's authenticate answer, byte for byte.
    package func encodeAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8] {
        Array(response.serializedResponse(rid: rid).utf8)
    }
}
