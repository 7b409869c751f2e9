#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock the benchmarks measure intervals and latencies with.
public enum BenchClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    @inline(__always) public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
