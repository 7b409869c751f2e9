/// The 16 payload patterns of the WebSocket benchmark contract: message `i` uses pattern
/// `k = i mod 16`, whose byte `j` is `'a' + (k + j) mod 26` (text) or `(k + j) mod 256` (binary).
public enum ContractPatterns {
    /// The 16 patterns of `size` bytes each.
    public static func make(size: Int, binary: Bool) -> [[UInt8]] {
        // Pattern k is bytes k..<k+size of one sequence whose byte j is j mod 256 (binary) or
        // 'a' + j mod 26 (text), since (k + j) mod m is element k + j of that sequence.
        var sequence = [UInt8](repeating: 0, count: size + 16)
        for j in sequence.indices {
            sequence[j] = binary ? UInt8(truncatingIfNeeded: j) : UInt8(ascii: "a") &+ UInt8(j % 26)
        }
        return (0..<16).map { k in Array(sequence[k..<(k + size)]) }
    }
}
