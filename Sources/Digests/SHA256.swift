/// SHA-256 (FIPS 180-4), usable one-shot (`SHA256.hash(_:)`) or incrementally
/// (`var h = SHA256(); h.update(...); h.finalize()`).
package struct SHA256: Sendable {
    /// Digest length in bytes.
    package static let digestByteCount = 32
    /// Internal block length in bytes (HMAC needs it).
    package static let blockByteCount = 64

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    /// Total message length so far, in bytes.
    private var length: UInt64 = 0

    /// A fresh hasher with no input.
    package init() {
        pending.reserveCapacity(SHA256.blockByteCount)
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Feeds more message bytes.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { self.update(buffer: $0) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { self.update(buffer: $0) }
        }
    }

    private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(buffer.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(SHA256.blockByteCount - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            index = take
            if pending.count == SHA256.blockByteCount {
                let block = pending
                block.withUnsafeBufferPointer { compress($0, offset: 0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while buffer.count - index >= SHA256.blockByteCount {
            compress(buffer, offset: index)
            index += SHA256.blockByteCount
        }
        if index < buffer.count {
            pending.append(contentsOf: buffer[index...])
        }
    }

    /// Pads the message and returns the 32-byte digest. The hasher should not be reused afterwards.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let afterMarker = (pending.count + 1) % SHA256.blockByteCount
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 64 + 56 - afterMarker
        tail.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        let savedLength = length
        tail.withUnsafeBufferPointer { update(buffer: $0) }
        length = savedLength
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.digestByteCount)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    private mutating func compress(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int) {
        // The 64-word message schedule lives on the stack: no heap allocation per block.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                let i = offset + t * 4
                w[t] =
                    UInt32(buffer[i]) << 24 | UInt32(buffer[i + 1]) << 16
                    | UInt32(buffer[i + 2]) << 8 | UInt32(buffer[i + 3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            SHA256.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x >> n) | (x << (32 - n))
}
