/// An incremental frame decoder. Bytes go in in any split; out come each frame's header, then its
/// payload as one or more slices of the input (still masked: unmask with the header's key and the
/// slice's offset). The result is the same whatever the split. It checks everything a single frame
/// can break: reserved bits, reserved opcodes, control frame rules, masking for the role, the
/// 64-bit length's top bit (all 1002) and the frame size limit (1009), each as soon as the bytes
/// that show it arrive. It never allocates on behalf of an announced length.
package struct WebSocketFrameDecoder: Sendable {
    /// Which masking the peer must use.
    package enum MaskRequirement: Sendable, Hashable {
        /// Server role: every client frame is masked (RFC 6455 §5.1).
        case masked
        /// Client role: no server frame is masked.
        case unmasked
        /// Accept both (tests and tools).
        case either
    }

    /// One step of decoding. `payload` slices point into the caller's input and are only valid
    /// until the input goes away.
    package enum Element {
        /// A frame starts. Its payload follows, also when empty.
        case header(WebSocketFrameHeader)
        /// Bytes of the current frame's payload, masked as on the wire. `offset` is where they sit
        /// in the payload; `isFrameEnd` marks the last slice (possibly empty).
        case payload(UnsafeRawBufferPointer, offset: Int, isFrameEnd: Bool)
    }

    /// Largest payload accepted, in bytes.
    package var maxFrameSize: Int
    /// Whether incoming frames must, or must not, be masked: servers require masks, clients refuse them.
    package var maskRequirement: MaskRequirement
    /// RSV bits a negotiated extension allows (low three bits); 0 without extensions.
    package var allowedReservedBits: UInt8

    private var header: WebSocketFrameHeader?
    private var payloadReceived = 0
    /// Header bytes when a header is split across inputs (at most 14).
    private var headerBytes: [UInt8] = []
    /// Payload gathered by `decode(_:)`, the whole-frame convenience.
    private var gathered: [UInt8] = []

    /// A decoder for one connection; `maxFrameSize` defaults to 16 MiB.
    package init(maxFrameSize: Int = 16 << 20, maskRequirement: MaskRequirement, allowedReservedBits: UInt8 = 0) {
        self.maxFrameSize = maxFrameSize
        self.maskRequirement = maskRequirement
        self.allowedReservedBits = allowedReservedBits
    }

    /// `true` between frames (no header or payload half read).
    package var isAtFrameBoundary: Bool { header == nil && headerBytes.isEmpty }

    /// Decodes the next element from `input`, starting at `index` and advancing it. Returns `nil`
    /// when `input` is used up and more bytes are needed.
    package mutating func next(_ input: UnsafeRawBufferPointer, index: inout Int) throws(WebSocketError) -> Element? {
        if let header {
            let remaining = header.payloadLength &- payloadReceived
            let available = input.count &- index
            if remaining > 0 && available <= 0 { return nil }
            let take = min(remaining, max(available, 0))
            let offset = payloadReceived
            let slice: UnsafeRawBufferPointer
            if take > 0, let base = input.baseAddress {
                slice = UnsafeRawBufferPointer(start: base + index, count: take)
            } else {
                slice = UnsafeRawBufferPointer(start: nil, count: 0)
            }
            index &+= take
            payloadReceived &+= take
            let end = payloadReceived == header.payloadLength
            if end {
                self.header = nil
                payloadReceived = 0
            }
            return .payload(slice, offset: offset, isFrameEnd: end)
        }
        guard let parsed = try nextHeader(input, index: &index) else { return nil }
        header = parsed
        payloadReceived = 0
        return .header(parsed)
    }

    private mutating func nextHeader(_ input: UnsafeRawBufferPointer, index: inout Int) throws(WebSocketError) -> WebSocketFrameHeader? {
        let available = input.count &- index
        if headerBytes.isEmpty, available >= 2, let base = input.baseAddress {
            let b0 = base.load(fromByteOffset: index, as: UInt8.self)
            let b1 = base.load(fromByteOffset: index &+ 1, as: UInt8.self)
            let length = try checkFirstTwoBytes(b0, b1)
            if available >= length {
                let header = try parseHeader(UnsafeRawBufferPointer(start: base + index, count: length))
                index &+= length
                return header
            }
        }
        // Slow path: gather a split header byte by byte, checking as early as possible.
        if headerBytes.isEmpty { headerBytes.reserveCapacity(14) }
        while index < input.count {
            headerBytes.append(input[index])
            index &+= 1
            guard headerBytes.count >= 2 else { continue }
            let length = try checkFirstTwoBytes(headerBytes[0], headerBytes[1])
            if headerBytes.count == length {
                let parsed = headerBytes.withUnsafeBytes { bytes in
                    Result { () throws(WebSocketError) in try parseHeader(bytes) }
                }
                let header = try parsed.get()
                headerBytes.removeAll(keepingCapacity: true)
                return header
            }
            if headerBytes.count == 3 && length >= 10 && headerBytes[2] & 0x80 != 0 {
                throw .protocolViolation(.payloadLengthHighBitSet)
            }
        }
        return nil
    }

    /// Validates the fixed part of a header and returns the whole header's length in bytes.
    @inline(__always)
    private func checkFirstTwoBytes(_ b0: UInt8, _ b1: UInt8) throws(WebSocketError) -> Int {
        let rsv = (b0 >> 4) & 0x7
        if rsv & ~allowedReservedBits != 0 {
            throw .protocolViolation(.reservedBitsSet(rsv))
        }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
            throw .protocolViolation(.reservedOpcode(b0 & 0x0F))
        }
        let length7 = b1 & 0x7F
        if opcode.isControl {
            if b0 & 0x80 == 0 { throw .protocolViolation(.fragmentedControlFrame(opcode)) }
            if length7 > 125 { throw .protocolViolation(.controlFrameTooLong(opcode)) }
        }
        let masked = b1 & 0x80 != 0
        switch maskRequirement {
        case .masked where !masked: throw .protocolViolation(.unmaskedFrameFromClient)
        case .unmasked where masked: throw .protocolViolation(.maskedFrameFromServer)
        default: break
        }
        let extended = length7 == 126 ? 2 : (length7 == 127 ? 8 : 0)
        return 2 &+ extended &+ (masked ? 4 : 0)
    }

    /// Parses a complete header whose first two bytes already passed `checkFirstTwoBytes`.
    @inline(__always)
    private func parseHeader(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketFrameHeader {
        let b0 = bytes[0], b1 = bytes[1]
        let length7 = b1 & 0x7F
        var cursor = 2
        var length: UInt64
        if length7 == 126 {
            length = UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            cursor = 4
        } else if length7 == 127 {
            length = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt64.self))
            cursor = 10
            if length & (1 << 63) != 0 {
                throw .protocolViolation(.payloadLengthHighBitSet)
            }
        } else {
            length = UInt64(length7)
        }
        if length > UInt64(max(maxFrameSize, 0)) {
            throw .messageTooBig(size: length, limit: maxFrameSize)
        }
        var key: WebSocketMaskingKey?
        if b1 & 0x80 != 0 {
            key = WebSocketMaskingKey(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: cursor, as: UInt32.self)))
        }
        // The opcode was validated by checkFirstTwoBytes.
        let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) ?? .binary
        return WebSocketFrameHeader(fin: b0 & 0x80 != 0, reservedBits: (b0 >> 4) & 0x7, opcode: opcode, maskingKey: key, payloadLength: Int(length))
    }

    /// Decodes every frame completed by `bytes` (payloads unmasked), keeping partial frames for the
    /// next call. A convenience for tests and tools; the state machine streams instead.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        var index = 0
        var current = header
        while let element = try next(bytes, index: &index) {
            switch element {
            case .header(let header):
                current = header
                gathered.removeAll(keepingCapacity: true)
            case .payload(let slice, let offset, let isFrameEnd):
                let start = gathered.count
                gathered.append(contentsOf: slice)
                if let key = current?.maskingKey {
                    gathered.withUnsafeMutableBytes { all in
                        WebSocketMasking.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: all[start...]), phase: offset)
                    }
                }
                if isFrameEnd, let header = current {
                    frames.append(
                        WebSocketFrame(
                            fin: header.fin, reservedBits: header.reservedBits, opcode: header.opcode, maskingKey: header.maskingKey, payload: gathered))
                    gathered.removeAll(keepingCapacity: true)
                    current = nil
                }
            }
        }
        return frames
    }

    /// Decodes every frame completed by `bytes`; see `decode(_:)`.
    package mutating func decode(_ bytes: [UInt8]) throws(WebSocketError) -> [WebSocketFrame] {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(WebSocketError) in try decode(raw) }
        }
        return try result.get()
    }
}
