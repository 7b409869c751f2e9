/// How SocketCluster packets become WebSocket messages and back: socketcluster-client's and
/// socketcluster-server's `codecEngine`. Both ends of a connection must use the same codec.
///
/// The built-in codecs are ``JSONPacketCodec`` (the default, text messages) and
/// ``MinBinPacketCodec`` (`sc-codec-min-bin` 3.0.0, binary MessagePack messages). Pings and pongs
/// (`""`, `#1`, `#2`) are never encoded: they are always text messages, whatever the codec.
///
/// A codec of your own implements the three requirements; ``encodeBatch(_:)`` has a default:
///
/// ```swift
/// /// JSON packets in binary messages, for a server whose codec decodes binary frames as UTF-8.
/// struct BinaryJSONCodec: PacketCodec {
///     var messageKind: PacketMessageKind { .binary }
///
///     func encode(_ packet: Packet, keyOrder: PacketKeyOrder) -> [UInt8] {
///         JSONPacketCodec().encode(packet, keyOrder: keyOrder)
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
/// A codec that is not JSON writes ``Packet/jsonValue`` in its own format and reads a received
/// value back with ``Packet/init(classifying:)``. The types in the requirements (``Packet``,
/// ``PacketKeyOrder``, ``PacketMessageKind``, ``InboundPacket``, ``PacketDecodingError``) are
/// public for codec writers; the rest of the wire model (frame classification, serialization,
/// the handshake and authenticate answers) is internal to this package. A broker answers
/// `#handshake` and `#authenticate` through ``encode(_:keyOrder:)`` of a codec of your own;
/// the built-in codecs write those answers in socketcluster-server's member order.
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
}

extension PacketCodec {
    /// Default: an array of the packets, as JSON (`[p1,p2]`).
    public func encodeBatch(_ encodedPackets: [[UInt8]]) -> [UInt8] {
        Packet.batchFrame(encodedPackets)
    }
}

/// A codec that writes the handshake and authenticate answers itself, in the member order
/// socketcluster-server writes them (the built-in codecs do).
package protocol ServerResponseEncoding: PacketCodec {
    /// socketcluster-server's answer to `#handshake`: `data` members `id`, `pingTimeout`,
    /// `authError` (when set), `isAuthenticated`, in that order where the format keeps one.
    func encodeHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8]

    /// socketcluster-server's answer to `#authenticate`: `data` members `isAuthenticated`,
    /// `authError`, in that order where the format keeps one.
    func encodeAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8]
}

extension PacketCodec {
    /// The answer to `#handshake`: the codec's own (``ServerResponseEncoding``) or, for any other
    /// codec, the response packet through ``encode(_:keyOrder:)`` with the data members sorted.
    package func encodedHandshakeResponse(_ response: HandshakeResponse, rid: Int64) -> [UInt8] {
        if let codec = self as? any ServerResponseEncoding { return codec.encodeHandshakeResponse(response, rid: rid) }
        return encode(.response(rid: rid, result: .success(response.dataValue)), keyOrder: .server)
    }

    /// The answer to `#authenticate`, chosen as ``encodedHandshakeResponse(_:rid:)`` chooses.
    package func encodedAuthenticateResponse(_ response: AuthenticateResponse, rid: Int64) -> [UInt8] {
        if let codec = self as? any ServerResponseEncoding { return codec.encodeAuthenticateResponse(response, rid: rid) }
        return encode(.response(rid: rid, result: .success(response.dataValue)), keyOrder: .server)
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
    package func encoded(with codec: any PacketCodec) -> [UInt8] {
        codec.encode(self, keyOrder: .server)
    }
}
