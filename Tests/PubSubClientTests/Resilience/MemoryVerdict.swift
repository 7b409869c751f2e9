import Foundation

/// Whether resident memory held steady over a soak, from samples taken at equal intervals
/// (bytes, with the test's own bookkeeping already subtracted).
///
/// Measured on a 2-core Linux machine, 60 s soak: 100,000–135,000 calls and as many
/// publications, 1.0–1.3 million deliveries and 200 reconnections; the live heap (glibc
/// `malloc_stats`) grows during the first ~20 s while buffers, tables and allocator arenas
/// reach their working size, then stays flat; RSS grows 1.5–5 MiB after warm-up, about 1 MiB
/// over the second half.
struct MemoryVerdict {
    /// Largest allowed growth after warm-up (bytes): about 15 bytes per message handled, or
    /// 100 KiB per reconnection, over the 60 s soak.
    static let maximumGrowth = 20 << 20
    /// Largest allowed growth over the second half (bytes), so that a steady climb which has
    /// not yet reached `maximumGrowth` still fails; above the few MiB one new allocator arena
    /// (a new worker thread) may add at once.
    static let maximumSecondHalfGrowth = 8 << 20

    let samples: [Int]

    /// The first sixth of the run is warm-up.
    var atWarmUp: Int { samples[samples.count / 6] }
    var maximum: Int { samples.max() ?? 0 }
    /// Highest sample after warm-up minus the sample that ends it.
    var growth: Int { (samples[(samples.count / 6)...].max() ?? 0) - atWarmUp }
    /// Highest sample of the last eighth minus the lowest of the eighth that starts the second
    /// half: a steady climb shows, a single spike in the middle does not.
    var secondHalfGrowth: Int {
        let half = samples.count / 2, eighth = max(1, samples.count / 8)
        let early = samples[half..<min(samples.count, half + eighth)].min() ?? 0
        let late = samples[max(half, samples.count - eighth)...].max() ?? 0
        return late - early
    }

    /// Whether ThreadSanitizer is in the process: its shadow memory grows with every address
    /// touched, so RSS then says nothing about the code under test.
    static var underThreadSanitizer: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil }
}
