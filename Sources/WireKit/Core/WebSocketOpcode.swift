/// The 4-bit opcode of a WebSocket frame (RFC 6455 §5.2). Reserved opcodes have no case: the
/// decoder rejects them with close code 1002 before a frame is ever built.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CustomStringConvertible {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes of payload and never fragmented.
    @inlinable public var isControl: Bool { rawValue & 0x8 != 0 }

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
