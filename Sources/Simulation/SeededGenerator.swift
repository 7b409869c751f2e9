/// The simulator's only source of randomness: xoshiro256** seeded through SplitMix64, so one
/// 64-bit seed fixes every choice of a run and the same seed replays it exactly.
/// (`SystemRandomNumberGenerator` is never used by the simulator.)
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose whole sequence is determined by `seed`.
    package init(seed: UInt64) {
        var splitMix = seed
        state = (Self.splitMix64(&splitMix), Self.splitMix64(&splitMix), Self.splitMix64(&splitMix), Self.splitMix64(&splitMix))
    }

    /// SplitMix64's next output (also used to derive independent streams from one seed).
    package static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits (xoshiro256**).
    package mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// True with probability `probability` (0...1).
    package mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < probability
    }

    /// A uniform double in `0..<1`.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A uniform integer in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A uniform duration between `low` and `high`, in whole milliseconds.
    package mutating func milliseconds(_ low: Int64, _ high: Int64) -> Duration {
        .milliseconds(Int64.random(in: low...high, using: &self))
    }
}
