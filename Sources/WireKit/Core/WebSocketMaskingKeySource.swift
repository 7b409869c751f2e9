/// Fresh, unpredictable masking keys for client frames, cheaply. RFC 6455 §5.3 wants each key
/// drawn from a strong entropy source; asking the OS for every frame costs a system call (~0.3 µs),
/// so this is a ChaCha20 generator (RFC 8439 block function) seeded from
/// `SystemRandomNumberGenerator`, with fast key erasure (each refill replaces the key with fresh
/// output) and a reseed from the OS every `reseedInterval` refills.
struct WebSocketMaskingKeySource: Sendable {
    /// Refills between reseeds from the operating system.
    static let reseedInterval = 1024
    /// ChaCha20 blocks per refill (64 bytes each): 32 bytes become the next key, the rest keys.
    static let blocksPerRefill = 8

    /// The ChaCha20 key (8 words), replaced by fresh output on every refill.
    private var key: [UInt32] = []
    /// Keys not handed out yet (reused storage, `16 * blocksPerRefill - 8` words once filled).
    private var pool: [UInt32] = []
    private var index = 0
    private var refillsSinceSeed = 0

    init() {}

    /// The next masking key.
    mutating func next() -> WebSocketMaskingKey {
        if index == pool.count { refill() }
        let value = pool[index]
        index &+= 1
        return WebSocketMaskingKey(value)
    }

    private mutating func refill() {
        if key.isEmpty || refillsSinceSeed >= Self.reseedInterval {
            var system = SystemRandomNumberGenerator()
            key = (0..<4).flatMap { _ -> [UInt32] in
                let word: UInt64 = system.next()
                return [UInt32(truncatingIfNeeded: word), UInt32(truncatingIfNeeded: word >> 32)]
            }
            refillsSinceSeed = 0
        }
        refillsSinceSeed += 1
        // The first refill makes one block (8 keys): many connections only ever send a few frames.
        let words = 16 * (pool.isEmpty ? 1 : Self.blocksPerRefill)
        if pool.count != words - 8 { pool = [UInt32](repeating: 0, count: words - 8) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: words) { output in
            guard let base = output.baseAddress else { return }
            key.withUnsafeBufferPointer { key in
                for counter in 0..<(words / 16) {
                    Self.block(key: key, counter: UInt32(counter), nonce: (0, 0, 0), into: base + 16 * counter)
                }
            }
            // Fast key erasure: the first 32 bytes become the next key, the rest are handed out.
            key.withUnsafeMutableBufferPointer { key in
                for i in 0..<8 { key[i] = base[i] }
            }
            pool.withUnsafeMutableBufferPointer { pool in
                for i in 0..<(words - 8) { pool[i] = base[8 + i] }
            }
        }
        index = 0
    }

    /// The ChaCha20 block function (RFC 8439 §2.3): 16 little-endian output words.
    static func block(key: [UInt32], counter: UInt32, nonce: (UInt32, UInt32, UInt32)) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: 16) { output, count in
            key.withUnsafeBufferPointer { key in
                if let base = output.baseAddress { block(key: key, counter: counter, nonce: nonce, into: base) }
            }
            count = 16
        }
    }

    /// The ChaCha20 block function writing its 16 words to `output`; `key` holds 8 words.
    private static func block(
        key: UnsafeBufferPointer<UInt32>, counter: UInt32, nonce: (UInt32, UInt32, UInt32),
        into output: UnsafeMutablePointer<UInt32>
    ) {
        let i0: UInt32 = 0x6170_7865, i1: UInt32 = 0x3320_646E, i2: UInt32 = 0x7962_2D32, i3: UInt32 = 0x6B20_6574
        let i4 = key[0], i5 = key[1], i6 = key[2], i7 = key[3], i8 = key[4], i9 = key[5], i10 = key[6], i11 = key[7]
        let i12 = counter, i13 = nonce.0, i14 = nonce.1, i15 = nonce.2
        var x0 = i0, x1 = i1, x2 = i2, x3 = i3, x4 = i4, x5 = i5, x6 = i6, x7 = i7
        var x8 = i8, x9 = i9, x10 = i10, x11 = i11, x12 = i12, x13 = i13, x14 = i14, x15 = i15
        @inline(__always) func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
            a &+= b; d ^= a; d = d << 16 | d >> 16
            c &+= d; b ^= c; b = b << 12 | b >> 20
            a &+= b; d ^= a; d = d << 8 | d >> 24
            c &+= d; b ^= c; b = b << 7 | b >> 25
        }
        for _ in 0..<10 {
            quarterRound(&x0, &x4, &x8, &x12); quarterRound(&x1, &x5, &x9, &x13)
            quarterRound(&x2, &x6, &x10, &x14); quarterRound(&x3, &x7, &x11, &x15)
            quarterRound(&x0, &x5, &x10, &x15); quarterRound(&x1, &x6, &x11, &x12)
            quarterRound(&x2, &x7, &x8, &x13); quarterRound(&x3, &x4, &x9, &x14)
        }
        output[0] = x0 &+ i0; output[1] = x1 &+ i1; output[2] = x2 &+ i2; output[3] = x3 &+ i3
        output[4] = x4 &+ i4; output[5] = x5 &+ i5; output[6] = x6 &+ i6; output[7] = x7 &+ i7
        output[8] = x8 &+ i8; output[9] = x9 &+ i9; output[10] = x10 &+ i10; output[11] = x11 &+ i11
        output[12] = x12 &+ i12; output[13] = x13 &+ i13; output[14] = x14 &+ i14; output[15] = x15 &+ i15
    }
}
