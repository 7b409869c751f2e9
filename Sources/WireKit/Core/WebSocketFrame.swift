/// One whole WebSocket frame with its payload unmasked (RFC 6455 §5.2). The state machine
/// streams payloads without building these; they serve tests, fuzz targets and benchmarks.
package struct WebSocketFrame: Sendable, Hashable {
    /// Final fragment of a message.
    package var fin: Bool
    /// The three reserved bits as the low bits of a byte: RSV1 = 0b100, RSV2 = 0b010, RSV3 = 0b001.
    package var reservedBits: UInt8
    /// What the frame carries.
    package var opcode: WebSocketOpcode
    /// Present on frames a client sends.
    package var maskingKey: WebSocketMaskingKey?
    /// Application data, unmasked.
    package var payload: [UInt8]

    /// A frame; by default final, without reserved bits, unmasked and empty.
    package init(fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode, maskingKey: WebSocketMaskingKey? = nil, payload: [UInt8] = []) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }
}

/// The parsed header of a frame whose payload may still be arriving.
package struct WebSocketFrameHeader: Sendable, Hashable {
    /// Final fragment of a message.
    package var fin: Bool
    /// RSV1–RSV3 as the low three bits (RSV1 = 0b100).
    package var reservedBits: UInt8
    /// What the frame carries.
    package var opcode: WebSocketOpcode
    /// Present on frames a client sends.
    package var maskingKey: WebSocketMaskingKey?
    /// Payload length in bytes, already checked against the decoder's frame limit.
    package var payloadLength: Int

    /// A header as read from the wire.
    package init(fin: Bool, reservedBits: UInt8, opcode: WebSocketOpcode, maskingKey: WebSocketMaskingKey?, payloadLength: Int) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }
}
