#if canImport(Glibc)
import Glibc
#endif

/// How `demo broker` asks glibc to give large freed blocks back to the system at once.
///
/// glibc serves a block of 128 KiB or more with its own mapping, but after such a block is freed
/// it raises that threshold to the block's size (up to 32 MiB), so later large messages are
/// carved from the heaps of the threads that allocate them, and a heap's free top is returned only
/// when it exceeds twice that threshold; `malloc_trim` does not shrink those heaps. Measured with
/// `Scripts/hostile/arrays.py`: 21.8 MiB at rest; 15 s after the attack 70–134 MiB without this
/// (even with a `malloc_trim(0)` after every large message), 22.7–22.8 MiB with it. A fixed threshold turns the adjustment off: every block of 1 MiB or more is
/// mapped on its own and unmapped when freed. This is a process-wide choice, so the library leaves
/// it to the application (here: the demo).
enum MemoryTuning {
    /// Blocks at least this large (bytes) get their own mapping.
    static let mmapThreshold: Int32 = 1 << 20

    /// Sets glibc's mmap threshold to `mmapThreshold` (`mallopt(M_MMAP_THRESHOLD, …)`); a no-op
    /// elsewhere.
    static func returnLargeBlocksAtOnce() {
        #if canImport(Glibc)
        // `mallopt` is looked up at run time: Swift's Glibc module does not import `malloc.h`.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let mmapThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD
        _ = mallopt(mmapThresholdParameter, mmapThreshold)
        #endif
    }
}
