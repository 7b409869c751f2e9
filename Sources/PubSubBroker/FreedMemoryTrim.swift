#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Gives memory the broker freed back to the operating system after a large message or a
/// connection that held one. glibc keeps freed heap pages for reuse, so after an attack of large
/// messages a broker at rest stays at a multiple of its usual size (measured: 21 MiB at rest, about
/// 600 MiB during, 64–124 MiB 15 s after); `malloc_trim(0)` returns them. Debounced: at most one
/// trim per `interval`, run off the broker queue so a trim never delays a message. A no-op where
/// glibc is absent (macOS returns freed memory by itself).
struct FreedMemoryTrim {
    /// A message or connection at least this large (bytes) schedules a trim: 1 MiB.
    static let threshold = 1 << 20
    /// Least time between two trims.
    static let interval: DispatchTimeInterval = .seconds(1)

    private var scheduled = false
    /// A large release arrived while a trim was scheduled: trim once more after it.
    private var releasedSinceScheduled = false

    /// Notes that `bytes` were released (a message processed, a connection closed) and schedules
    /// a trim on `queue` unless one is already due (then one more follows it, so the last
    /// release is always trimmed after); `done` runs on `queue` after it and must call `trimmed`.
    mutating func released(bytes: Int, on queue: DispatchQueue, done: @escaping @Sendable () -> Void) {
        guard bytes >= Self.threshold else { return }
        guard !scheduled else {
            releasedSinceScheduled = true
            return
        }
        schedule(on: queue, done: done)
    }

    /// The scheduled trim ran; schedules the next one when a large release came meanwhile.
    mutating func trimmed(on queue: DispatchQueue, done: @escaping @Sendable () -> Void) {
        scheduled = false
        guard releasedSinceScheduled else { return }
        schedule(on: queue, done: done)
    }

    private mutating func schedule(on queue: DispatchQueue, done: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        scheduled = true
        releasedSinceScheduled = false
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.interval) {
            _ = FreedMemoryTrim.mallocTrim?(0)
            queue.async(execute: done)
        }
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up at run time: Swift's Glibc module does not import
    /// `malloc.h`. `nil` on a C library without it (musl).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
