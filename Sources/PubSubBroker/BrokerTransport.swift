import Foundation

/// The I/O side the broker's serial context writes to: one text frame or one close per call,
/// called on the broker's queue. Implementations must not block and must keep the order of
/// calls per connection.
protocol BrokerTransport: AnyObject, Sendable {
    /// Queues a text frame, given as its UTF-8 (trusted: the core serialized it); it leaves at
    /// the next `flush` at the latest.
    func send(_ utf8: [UInt8], on connection: BrokerConnectionID)
    /// Queues a binary frame (a binary codec's packet or batch), like `send(_:on:)`.
    func sendBinary(_ bytes: [UInt8], on connection: BrokerConnectionID)
    /// Sends what is queued for `connection`, then its close frame.
    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String)
    /// Writes what `send` queued since the last flush (called once per broker step, so a step's
    /// frames to one connection leave in one write).
    func flush()
}

/// Arms the broker's one timer for `BrokerCore.nextDeadline`.
protocol DeadlineScheduler: AnyObject, Sendable {
    /// Replaces the timer: `fire` runs on the broker's queue at `deadline` (`now` is the current
    /// instant, to measure the delay from); `nil` cancels it.
    func schedule(at deadline: MonotonicInstant?, now: MonotonicInstant, fire: @escaping @Sendable () -> Void)
}

/// `DeadlineScheduler` on one Dispatch timer targeting the broker's serial queue.
final class DispatchDeadlineScheduler: DeadlineScheduler, @unchecked Sendable {
    // `timer` is only touched on `queue`, the broker's serial context.
    private let queue: DispatchQueue
    private var timer: DispatchSourceTimer?

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func schedule(at deadline: MonotonicInstant?, now: MonotonicInstant, fire: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let deadline else {
            timer?.cancel()
            timer = nil
            return
        }
        let timer: DispatchSourceTimer
        if let existing = self.timer {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: queue)
            self.timer = timer
            timer.resume()
        }
        timer.setEventHandler(handler: fire)
        let delay = Int(clamping: (deadline - now).saturatingNanoseconds)
        timer.schedule(deadline: .now() + .nanoseconds(delay), leeway: .milliseconds(1))
    }
}
