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

    private var key: [UInt32] = []
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
        var output: [UInt32] = []
        output.reserveCapacity(16 * Self.blocksPerRefill)
        for counter in 0..<Self.blocksPerRefill {
            output.append(contentsOf: Self.block(key: key, counter: UInt32(counter), nonce: (0, 0, 0)))
        }
        key = Array(output[0..<8])
        pool = Array(output[8...])
        index = 0
    }

    /// The ChaCha20 block function (RFC 8439 §2.3): 16 little-endian output words.
    static func block(key: [UInt32], counter: UInt32, nonce: (UInt32, UInt32, UInt32)) -> [UInt32] {
        let initial: [UInt32] = [0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574] + key + [counter, nonce.0, nonce.1, nonce.2]
        var x = initial
        @inline(__always) func quarterRound(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            x[a] &+= x[b]; x[d] ^= x[a]; x[d] = x[d] << 16 | x[d] >> 16
            x[c] &+= x[d]; x[b] ^= x[c]; x[b] = x[b] << 12 | x[b] >> 20
            x[a] &+= x[b]; x[d] ^= x[a]; x[d] = x[d] << 8 | x[d] >> 24
            x[c] &+= x[d]; x[b] ^= x[c]; x[b] = x[b] << 7 | x[b] >> 25
        }
        for _ in 0..<10 {
            quarterRound(0, 4, 8, 12); quarterRound(1, 5, 9, 13); quarterRound(2, 6, 10, 14); quarterRound(3, 7, 11, 15)
            quarterRound(0, 5, 10, 15); quarterRound(1, 6, 11, 12); quarterRound(2, 7, 8, 13); quarterRound(3, 4, 9, 14)
        }
        for i in 0..<16 { x[i] &+= initial[i] }
        return x
    }
}
