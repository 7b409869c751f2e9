import Foundation
@testable import PubSubBroker

/// Records the broker's one timer; tests fire it by moving a `ManualClock`.
final class ManualDeadlineScheduler: DeadlineScheduler, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var entry: (deadline: MonotonicInstant, fire: @Sendable () -> Void)?

    func schedule(at deadline: MonotonicInstant?, now: MonotonicInstant, fire: @escaping @Sendable () -> Void) {
        lock.withLock { entry = deadline.map { ($0, fire) } }
    }

    /// The pending deadline.
    var nextDeadline: MonotonicInstant? {
        lock.withLock { entry?.deadline }
    }

    /// Moves `clock` to the deadline and fires it; false when nothing is scheduled.
    @discardableResult
    func fireNext(moving clock: ManualClock) -> Bool {
        let taken: (deadline: MonotonicInstant, fire: @Sendable () -> Void)? = lock.withLock {
            defer { entry = nil }
            return entry
        }
        guard let taken else { return false }
        clock.set(taken.deadline)
        taken.fire()
        return true
    }
}
