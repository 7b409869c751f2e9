/// How the peer broke RFC 6455. Every case fails the connection with close code 1002.
public enum WebSocketProtocolViolation: Sendable, Hashable, CustomStringConvertible {
    /// A continuation frame arrived with no fragmented message to continue.
    case continuationWithoutMessage
    /// A new data frame arrived while a fragmented message of `unfinished` was incomplete.
    case interleavedDataFrame(opcode: WebSocketOpcode, unfinished: WebSocketOpcode)
    /// A 64-bit payload length had its most significant bit set.
    case payloadLengthHighBitSet
    /// Reserved header bits (RSV1-3, as a 3-bit value) were set without a negotiated extension.
    case reservedBitsSet(UInt8)
    /// The opcode is one RFC 6455 reserves.
    case reservedOpcode(UInt8)
    /// A control frame had FIN clear.
    case fragmentedControlFrame(WebSocketOpcode)
    /// A control frame's payload exceeded 125 bytes.
    case controlFrameTooLong(WebSocketOpcode)
    /// A client sent an unmasked frame.
    case unmaskedFrameFromClient
    /// A server sent a masked frame.
    case maskedFrameFromServer
    /// A close frame's payload was exactly 1 byte (a code needs 2).
    case oneByteClosePayload
    /// A close frame carried a code that may not be sent on the wire.
    case invalidCloseCode(UInt16)

    public var description: String {
        switch self {
        case .continuationWithoutMessage: "continuation frame without a message to continue"
        case .interleavedDataFrame(let opcode, let unfinished):
            "new \(opcode) frame while a fragmented \(unfinished) message is unfinished"
        case .payloadLengthHighBitSet: "64-bit payload length with the most significant bit set"
        case .reservedBitsSet(let bits): "reserved bits \(String(bits, radix: 2)) set without a negotiated extension"
        case .reservedOpcode(let opcode): "reserved opcode 0x\(String(opcode, radix: 16))"
        case .fragmentedControlFrame(let opcode): "fragmented \(opcode) frame"
        case .controlFrameTooLong(let opcode): "\(opcode) frame payload over 125 bytes"
        case .unmaskedFrameFromClient: "unmasked frame from a client"
        case .maskedFrameFromServer: "masked frame from a server"
        case .oneByteClosePayload: "close frame with a 1-byte payload"
        case .invalidCloseCode(let code): "invalid close code \(code)"
        }
    }
}
