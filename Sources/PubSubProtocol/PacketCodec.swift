/// How SocketCluster packets become WebSocket messages and back: socketcluster-client's and
/// socketcluster-server's `codecEngine`. Both ends of a connection must use the same codec.
///
/// The built-in codecs are ``JSONPacketCodec`` (the default, text messages) and
/// ``MinBinPacketCodec`` (`sc-codec-min-bin` 3.0.0, binary MessagePack messages). Pings and pongs
/// (`""`, `#1`, `#2`) are never encoded: they are always text messages, whatever the codec.
///
/// A codec of your own implements the three requirements; the others have defaults:
///
/// ```swift
/// /// JSON packets in binary messages, for a server whose codec decodes binary frames as UTF-8.
/// struct BinaryJSONCodec: PacketCodec {
///     var messageKind: PacketMessageKind { .binary }
///
///     func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8] {
///         packet.serializedBytes(keyOrder: keyOrder)
///     }
///
///     func decode(
///         _ message: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, maximumValues: Int
///     ) throws(PacketDecodingError) -> [InboundPacket]? {
///         try JSONPacketCodec().decode(message, kind: .binary, maximumValues: maximumValues)
///     }
/// }
/// ```
///
/// Encoding cannot fail: a codec meets only values a peer could have sent (a codec that cannot
/// represent one writes its closest form, as ``MinBinPacketCodec`` writes nil for a string of
/// 4 GiB or more, which no message size limit lets through).
public protocol PacketCodec: Sendable {
    /// The message type packets are sent in. Receivers hand a codec every message except pings
    /// and pongs, of either type; see ``decode(_:kind:maximumValues:)``.
    var messageKind: PacketMessageKind { get }

    /// One packet as it travels alone in a message, or as an element of a batch.
    /// `keyOrder` says which peer's member order to write where the format has one.
    func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8]

    /// Encoded packets (from ``encode(_:keyOrder:)``) joined into one batch message. Default:
    /// a JSON array of them, `[p1,p2,…]`.
    func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8]

    /// The packets of one received message of type `kind`, or `nil` when it holds none (a raw
    /// message: not in this codec's format, or a lone value that is not a packet). Throws when
    /// the message holds more than `maximumValues` values (every scalar, array, object and key
    /// counts one) or breaks another limit of the codec's.
    func decode(
        _ message: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, maximumValues: Int
    ) throws(PacketDecodingError) -> [InboundPacket]?

    /// socketcluster-server's answer to `#handshake`: `data` members `id`, `pingTimeout`,
    /// `authError` (when set), `isAuthenticated`, in that order where the format keeps one.
    func encodeHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8]

    /// socketcluster-server's answer to `#authenticate`: `data` members `isAuthenticated`,
    /// `authError`, in that order where the format keeps one.
    func encodeAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8]
}

extension PacketCodec {
    /// Default: an array of the packets, as JSON (`[p1,p2]`).
    public func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8] {
        Packet.batchFrame(encodedPackets)
    }

    /// Default: the response packet with the data members in sorted order.
    public func encodeHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8] {
        encode(.response(rid: rid, result: .success(response.dataValue)), keyOrder: .server)
    }

    /// Default: the response packet with the data members in sorted order.
    public func encodeAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8] {
        encode(.response(rid: rid, result: .success(response.dataValue)), keyOrder: .server)
    }
}

extension PacketCodec where Self == JSONPacketCodec {
    /// JSON in text messages, socketcluster's default codec.
    public static var json: JSONPacketCodec { JSONPacketCodec() }
}

extension PacketCodec where Self == MinBinPacketCodec {
    /// `sc-codec-min-bin` 3.0.0: MessagePack in binary messages with compressed packet keys.
    public static var minBin: MinBinPacketCodec { MinBinPacketCodec() }
}

extension Packet {
    /// The packet as `codec` writes it, in socketcluster-server's member order.
    public func encoded(with codec: any PacketCodec) -> [UInt8] {
        codec.encode(self, keyOrder: .server)
    }
}
