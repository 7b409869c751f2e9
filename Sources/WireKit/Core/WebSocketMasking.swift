/// The 4-byte masking key of a client frame (RFC 6455 §5.3), in wire order.
package struct WebSocketMaskingKey: Sendable, Hashable, CustomStringConvertible {
    /// The key as a big-endian number: the first wire byte is the most significant.
    package var value: UInt32

    /// The key whose wire bytes are `value`, most significant first.
    package init(_ value: UInt32) { self.value = value }
    /// The key of the four wire bytes, in order.
    package init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        value = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// A fresh key from the system's cryptographically secure generator, as §5.3 requires.
    package static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return WebSocketMaskingKey(generator.next())
    }

    /// Key byte `index` (0–3) in wire order.
    @inlinable package subscript(index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * (index & 3))) }

    /// The key in hexadecimal.
    package var description: String { String(value, radix: 16) }
}

/// XOR masking a machine word (8 bytes) at a time. Masking and unmasking are the same operation.
package enum WebSocketMasking {
    /// The 8-byte repetition of `key`, rotated so byte 0 of the result lines up with payload byte
    /// `phase` (the offset of the chunk inside the frame payload), in memory order.
    @inlinable static func pattern(_ key: WebSocketMaskingKey, phase: Int) -> UInt64 {
        #if _endian(little)
        // Key byte 0 first in memory, repeated, then rotated so memory byte i is key[phase + i].
        let once = UInt64(key.value.byteSwapped)
        let pattern = once | once << 32
        let shift = UInt64((phase & 3) * 8)
        return shift == 0 ? pattern : (pattern >> shift | pattern << (64 - shift))
        #else
        var pattern: UInt64 = 0
        withUnsafeMutableBytes(of: &pattern) { bytes in
            for i in 0..<8 { bytes[i] = key[phase &+ i] }
        }
        return pattern
        #endif
    }

    /// Masks (or unmasks) `bytes` in place; `phase` is the offset of `bytes[0]` in the frame payload.
    package static func apply(_ key: WebSocketMaskingKey, to bytes: UnsafeMutableRawBufferPointer, phase: Int = 0) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let word = pattern(key, phase: phase)
        let count = bytes.count
        var i = 0
        while i &+ 32 <= count {
            let a = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = base.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            let c = base.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self)
            let d = base.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self)
            base.storeBytes(of: a ^ word, toByteOffset: i, as: UInt64.self)
            base.storeBytes(of: b ^ word, toByteOffset: i &+ 8, as: UInt64.self)
            base.storeBytes(of: c ^ word, toByteOffset: i &+ 16, as: UInt64.self)
            base.storeBytes(of: d ^ word, toByteOffset: i &+ 24, as: UInt64.self)
            i &+= 32
        }
        while i &+ 8 <= count {
            let a = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            base.storeBytes(of: a ^ word, toByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < count {
            base.storeBytes(of: base.load(fromByteOffset: i, as: UInt8.self) ^ key[phase &+ i], toByteOffset: i, as: UInt8.self)
            i &+= 1
        }
    }

    /// Copies `source` into `destination` (at least as large) while masking; `phase` is the offset
    /// of `source[0]` in the frame payload. The buffers may be the same but must not otherwise overlap.
    package static func copy(_ source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer, key: WebSocketMaskingKey, phase: Int = 0) {
        guard let src = source.baseAddress, let dst = destination.baseAddress, source.count > 0 else { return }
        let count = min(source.count, destination.count)
        let word = pattern(key, phase: phase)
        var i = 0
        while i &+ 32 <= count {
            let a = src.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = src.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            let c = src.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self)
            let d = src.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self)
            dst.storeBytes(of: a ^ word, toByteOffset: i, as: UInt64.self)
            dst.storeBytes(of: b ^ word, toByteOffset: i &+ 8, as: UInt64.self)
            dst.storeBytes(of: c ^ word, toByteOffset: i &+ 16, as: UInt64.self)
            dst.storeBytes(of: d ^ word, toByteOffset: i &+ 24, as: UInt64.self)
            i &+= 32
        }
        while i &+ 8 <= count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ word, toByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < count {
            dst.storeBytes(of: src.load(fromByteOffset: i, as: UInt8.self) ^ key[phase &+ i], toByteOffset: i, as: UInt8.self)
            i &+= 1
        }
    }
}
