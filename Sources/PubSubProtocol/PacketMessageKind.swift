/// The WebSocket message type a codec's packets travel in.
///
/// This set is closed: RFC 6455 has two data message types.
public enum PacketMessageKind: Sendable, Hashable {
    /// A text message (opcode 1): UTF-8, as the JSON codec writes.
    case text
    /// A binary message (opcode 2), as `sc-codec-min-bin` writes.
    case binary
}
