/// Writes frames (header and payload together) onto the end of a reusable byte buffer.
package enum WebSocketFrameEncoder {
    /// Header size in bytes for a payload of `payloadCount` bytes.
    @inlinable package static func headerLength(payloadCount: Int, masked: Bool) -> Int {
        (payloadCount < 126 ? 2 : (payloadCount <= 0xFFFF ? 4 : 10)) + (masked ? 4 : 0)
    }

    /// Appends one frame to `buffer`. With a masking key (client role) the payload is masked on
    /// the way in; `reservedBits` are RSV1–RSV3 as the low three bits.
    package static func encode(
        opcode: WebSocketOpcode,
        fin: Bool = true,
        reservedBits: UInt8 = 0,
        payload: UnsafeRawBufferPointer,
        maskingKey: WebSocketMaskingKey?,
        into buffer: inout [UInt8]
    ) {
        let count = payload.count
        let needed = buffer.count + headerLength(payloadCount: count, masked: maskingKey != nil) + count
        if needed > buffer.capacity {
            // Grow geometrically: exact reservations would make a long run of appends quadratic.
            buffer.reserveCapacity(max(needed, buffer.capacity * 2))
        }
        // The header (at most 14 bytes) is built on the stack and appended in one go.
        var header: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &header) { bytes in
            bytes[0] = (fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | opcode.rawValue
            let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
            var length = 2
            if count < 126 {
                bytes[1] = maskBit | UInt8(count)
            } else if count <= 0xFFFF {
                bytes[1] = maskBit | 126
                bytes.storeBytes(of: UInt16(count).bigEndian, toByteOffset: 2, as: UInt16.self)
                length = 4
            } else {
                bytes[1] = maskBit | 127
                bytes.storeBytes(of: UInt64(count).bigEndian, toByteOffset: 2, as: UInt64.self)
                length = 10
            }
            if let key = maskingKey {
                bytes.storeBytes(of: key.value.bigEndian, toByteOffset: length, as: UInt32.self)
                length += 4
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<length]))
        }
        guard let key = maskingKey else {
            buffer.append(contentsOf: payload)
            return
        }
        let start = buffer.count
        buffer.append(contentsOf: payload)
        buffer.withUnsafeMutableBytes { all in
            WebSocketMasking.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
        }
    }

    /// Appends `frame` to `buffer`, masking with its key if it has one.
    package static func encode(_ frame: WebSocketFrame, into buffer: inout [UInt8]) {
        frame.payload.withUnsafeBytes { payload in
            encode(opcode: frame.opcode, fin: frame.fin, reservedBits: frame.reservedBits, payload: payload, maskingKey: frame.maskingKey, into: &buffer)
        }
    }

    /// The encoded bytes of `frame`.
    package static func encode(_ frame: WebSocketFrame) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(frame, into: &buffer)
        return buffer
    }
}
