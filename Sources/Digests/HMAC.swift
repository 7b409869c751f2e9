/// HMAC-SHA256 (RFC 2104 / RFC 4231), one-shot or incremental.
package struct HMAC: Sendable {
    private var inner: SHA256
    private var outerKeyPad: [UInt8]

    /// Starts an HMAC-SHA256 computation keyed with `key` (any length; longer than 64 bytes is hashed first).
    package init(key: some Collection<UInt8>) {
        var keyBlock = key.count > SHA256.blockByteCount ? SHA256.hash(key) : Array(key)
        keyBlock.append(contentsOf: repeatElement(0, count: SHA256.blockByteCount - keyBlock.count))
        inner = SHA256()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        outerKeyPad = keyBlock.map { $0 ^ 0x5c }
    }

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    package static func authenticationCode(for message: some Sequence<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var mac = HMAC(key: key)
        mac.update(message)
        return mac.finalize()
    }

    /// Feeds more message bytes.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        inner.update(bytes)
    }

    /// Returns the 32-byte authentication code. The value should not be reused afterwards.
    package mutating func finalize() -> [UInt8] {
        let innerDigest = inner.finalize()
        var outer = SHA256()
        outer.update(outerKeyPad)
        outer.update(innerDigest)
        return outer.finalize()
    }

    /// Compares two MACs in time independent of where they first differ.
    package static func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
