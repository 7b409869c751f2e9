/// The 4-bit opcode of a WebSocket frame (RFC 6455 §5.2). Reserved opcodes have no case: the
/// decoder rejects them with close code 1002 before a frame is ever built.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// A further fragment of a message.
    case continuation = 0x0
    /// The first frame of a text message (UTF-8).
    case text = 0x1
    /// The first frame of a binary message.
    case binary = 0x2
    /// Starts or answers the close handshake; may carry a close code and reason.
    case close = 0x8
    /// Asks the peer for a pong with the same payload.
    case ping = 0x9
    /// Answers a ping, or keeps the connection alive unasked.
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes of payload and never fragmented.
    @inlinable public var isControl: Bool { rawValue & 0x8 != 0 }

    /// The opcode's name, for example `text`.
    public var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
