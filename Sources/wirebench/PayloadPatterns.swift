/// The 16 payload patterns of the contract: message `i` uses pattern `i mod 16`, whose byte `j` is
/// `'a' + (k + j) mod 26` for text and `(k + j) mod 256` for binary. Built before the clock starts.
struct PayloadPatterns: Sendable {
    /// The bytes of each pattern (text patterns are ASCII).
    let bytes: [[UInt8]]
    /// Text patterns as strings (empty for binary), so sending does not convert.
    let strings: [String]
    let binary: Bool

    init(size: Int, binary: Bool) {
        self.binary = binary
        var bytes: [[UInt8]] = []
        for k in 0..<16 {
            if binary {
                bytes.append((0..<size).map { UInt8(truncatingIfNeeded: k + $0) })
            } else {
                bytes.append((0..<size).map { UInt8(ascii: "a") + UInt8((k + $0) % 26) })
            }
        }
        self.bytes = bytes
        strings = binary ? [] : bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `received` equals pattern `k` byte for byte.
    func matches(_ received: UnsafeRawBufferPointer, pattern k: Int) -> Bool {
        let expected = bytes[k]
        guard received.count == expected.count else { return false }
        guard let base = received.baseAddress, !expected.isEmpty else { return true }
        return expected.withUnsafeBytes { pattern in
            guard let patternBase = pattern.baseAddress else { return false }
            return memcmp(base, patternBase, pattern.count) == 0
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
