import Foundation

/// An inbound frame (or batch element) that is not a SocketCluster packet (Protocol.md §2).
///
/// This set is closed: a WebSocket message is text or binary, and a batch element is JSON.
public enum RawMessage: Sendable, Equatable {
    /// A text frame that is not JSON, or not a packet, kept verbatim.
    case text(String)
    /// A binary WebSocket frame; the JS client does not decode these either.
    case binary(Data)
    /// An element of a batch array that is JSON but not a packet.
    case json(JSONValue)
}
