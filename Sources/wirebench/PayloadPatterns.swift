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
        // Pattern k is bytes k..<k+size of one sequence whose byte j is j mod 256 (binary) or
        // 'a' + j mod 26 (text), since (k + j) mod m is element k + j of that sequence.
        var sequence = [UInt8](repeating: 0, count: size + 16)
        for j in sequence.indices {
            sequence[j] = binary ? UInt8(truncatingIfNeeded: j) : UInt8(ascii: "a") &+ UInt8(j % 26)
        }
        bytes = (0..<16).map { k in Array(sequence[k..<(k + size)]) }
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
