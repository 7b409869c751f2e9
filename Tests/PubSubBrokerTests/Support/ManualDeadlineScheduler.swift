import Foundation
@testable import PubSubBroker

/// Records the broker's deadlines; tests fire them by moving a `ManualClock`.
final class ManualDeadlineScheduler: DeadlineScheduler, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var entries: [BrokerConnectionID: (deadline: Date, fire: @Sendable () -> Void)] = [:]

    func schedule(_ connection: BrokerConnectionID, at deadline: Date?, fire: @escaping @Sendable () -> Void) {
        lock.lock()
        entries[connection] = deadline.map { ($0, fire) }
        lock.unlock()
    }

    /// The earliest pending deadline.
    var nextDeadline: Date? {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.map(\.deadline).min()
    }

    /// Moves `clock` to the earliest deadline and fires it; false when nothing is scheduled.
    @discardableResult
    func fireNext(moving clock: ManualClock) -> Bool {
        lock.lock()
        guard let (connection, entry) = entries.min(by: { $0.value.deadline < $1.value.deadline }) else {
            lock.unlock()
            return false
        }
        entries[connection] = nil
        lock.unlock()
        if entry.deadline > clock.now { clock.set(entry.deadline) }
        entry.fire()
        return true
    }
}
