import Foundation

/// Back-off jitter for one client session (`SessionConfiguration.random`), drawn from a seeded
/// generator so that reconnect delays replay with the seed.
///
/// `@unchecked Sendable`: the configuration demands a `@Sendable` closure; the generator is only
/// touched under `lock` (the simulator calls it from one thread anyway).
final class JitterSource: @unchecked Sendable {
    private let lock = NSLock()
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// A uniform value in `0..<1`.
    func next() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return generator.unit()
    }
}
