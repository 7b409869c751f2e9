import Foundation
@testable import PubSubBroker

/// A clock tests move by hand: the monotonic instant and the wall-clock time move together.
final class ManualClock: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private let start: Date
    private var elapsed: Duration = .zero
    /// The monotonic instant at `start` (any fixed origin works).
    private let origin = MonotonicInstant(nanoseconds: 1_000_000_000)

    init(_ start: Date) { self.start = start }

    /// Wall-clock time.
    var now: Date {
        lock.withLock { start.addingTimeInterval(Self.seconds(elapsed)) }
    }

    /// Monotonic time.
    var instant: MonotonicInstant {
        lock.withLock { origin + elapsed }
    }

    var reading: BrokerEngine.ClockReading {
        lock.withLock { .init(now: origin + elapsed, wallClock: start.addingTimeInterval(Self.seconds(elapsed))) }
    }

    /// Moves to the monotonic `instant` (never backwards).
    func set(_ instant: MonotonicInstant) {
        lock.withLock { elapsed = max(elapsed, instant - origin) }
    }

    func advance(by seconds: TimeInterval) {
        lock.withLock { elapsed += .nanoseconds(Int64(seconds * 1e9)) }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
