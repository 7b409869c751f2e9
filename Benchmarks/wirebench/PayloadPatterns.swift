import BenchSupport

/// The contract's 16 payload patterns (`ContractPatterns`) as sent and checked by `wirebench`,
/// built before the clock starts.
struct PayloadPatterns: Sendable {
    /// The bytes of each pattern (text patterns are ASCII).
    let bytes: [[UInt8]]
    /// Text patterns as strings (empty for binary), so sending does not convert.
    let strings: [String]
    let binary: Bool

    init(size: Int, binary: Bool) {
        self.binary = binary
        bytes = ContractPatterns.make(size: size, binary: binary)
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
