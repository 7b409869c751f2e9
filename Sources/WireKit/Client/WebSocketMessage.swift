#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A complete message received on a WebSocket.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (valid UTF-8, checked before delivery).
    case text(String)
    /// A binary message.
    case binary(Data)
}
