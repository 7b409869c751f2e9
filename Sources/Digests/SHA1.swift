/// SHA-1 (FIPS 180-4). Used for the WebSocket accept key, where RFC 6455 requires it; it is not
/// collision resistant and must not be used for security decisions.
package struct SHA1: Sendable {
    /// Digest size in bytes.
    package static let digestSize = 20
    /// Block size in bytes.
    package static let blockSize = 64

    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0
    private var pending: [UInt8] = []
    /// Total message length so far, in bytes.
    private var length: UInt64 = 0

    package init() { pending.reserveCapacity(SHA1.blockSize) }

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(Array(bytes))
        return hasher.finalize()
    }

    /// Feeds more message bytes.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds more message bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(SHA1.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            index = take
            if pending.count == SHA1.blockSize {
                pending.withUnsafeBytes { compress($0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - index >= SHA1.blockSize {
            compress(UnsafeRawBufferPointer(rebasing: bytes[index..<index + SHA1.blockSize]))
            index += SHA1.blockSize
        }
        if index < bytes.count { pending.append(contentsOf: bytes[index...]) }
    }

    /// Pads the message and returns the 20-byte digest.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let afterMarker = (pending.count + 1) % SHA1.blockSize
        tail.append(contentsOf: repeatElement(0, count: (56 - afterMarker + SHA1.blockSize) % SHA1.blockSize))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        update(tail)
        length = savedLength
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA1.digestSize)
        for word in [h0, h1, h2, h3, h4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
            }
            for t in 16..<80 {
                let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = (x << 1) | (x >> 31)
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = (b << 30) | (b >> 2)
                b = a
                a = temp
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
        }
    }
}
