/// How the peer broke RFC 6455 (or RFC 7692). Every case fails the connection with close code 1002.
///
/// This set is closed: RFC 6455 and RFC 7692 bound what a peer can get wrong at the framing
/// layer, so an exhaustive `switch` over it stays valid.
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
    /// A control frame had reserved bits set although permessage-deflate was negotiated (RFC 7692
    /// compresses data frames only).
    case compressedControlFrame(WebSocketOpcode)
    /// A continuation frame had RSV1 set (RFC 7692: only a message's first frame carries it).
    case compressedContinuationFrame
    /// A compressed message's first frame arrived while a fragmented message was unfinished.
    case compressedFrameInsideFragmentedMessage(WebSocketOpcode)
    /// A compressed message did not inflate; `reason` is zlib's.
    case invalidCompressedData(reason: String)

    /// What the peer did wrong, in words, for the close reason and error messages.
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
        case .compressedControlFrame(let opcode): "reserved bits set on a \(opcode) frame"
        case .compressedContinuationFrame: "RSV1 set on a continuation frame"
        case .compressedFrameInsideFragmentedMessage(let opcode):
            "new compressed \(opcode) frame while a fragmented message is unfinished"
        case .invalidCompressedData(let reason): "cannot inflate a compressed message: \(reason.escapedForDisplay)"
        }
    }
}
