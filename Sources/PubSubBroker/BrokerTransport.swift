import Foundation

/// The I/O side the broker's serial context writes to: one text frame or one close per call.
/// Implementations must not block and must keep the order of calls per connection.
protocol BrokerTransport: AnyObject, Sendable {
    func send(_ text: String, on connection: BrokerConnectionID)
    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String)
}

/// Arms one timer per connection for the deadline `BrokerCore` reports.
protocol DeadlineScheduler: AnyObject, Sendable {
    /// Replaces the connection's timer: `fire` runs on the broker's queue at `deadline`;
    /// `nil` cancels it.
    func schedule(_ connection: BrokerConnectionID, at deadline: Date?, fire: @escaping @Sendable () -> Void)
}

/// `DeadlineScheduler` on Dispatch timers targeting the broker's serial queue (no thread per
/// connection).
final class DispatchDeadlineScheduler: DeadlineScheduler, @unchecked Sendable {
    // `timers` is only touched on `queue`, the broker's serial context.
    private let queue: DispatchQueue
    private var timers: [BrokerConnectionID: DispatchSourceTimer] = [:]

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func schedule(_ connection: BrokerConnectionID, at deadline: Date?, fire: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let deadline else {
            timers.removeValue(forKey: connection)?.cancel()
            return
        }
        let timer: DispatchSourceTimer
        if let existing = timers[connection] {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: queue)
            timers[connection] = timer
            timer.resume()
        }
        timer.setEventHandler(handler: fire)
        let delay = max(0, deadline.timeIntervalSinceNow)
        timer.schedule(deadline: .now() + delay, leeway: .milliseconds(1))
    }

    func cancelAll() {
        dispatchPrecondition(condition: .onQueue(queue))
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
    }
}
