#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A complete message received on a WebSocket.
///
/// This set is closed: RFC 6455 has exactly two kinds of data message, text and binary, so an
/// exhaustive `switch` over it stays valid.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (valid UTF-8, checked before delivery).
    case text(String)
    /// A binary message.
    case binary(Data)
}
