import Dispatch
import MonotonicTime

/// A one-shot timer that runs a handler on a serial queue, re-scheduled at will: kept by the
/// `EventLoop` bound to the queue where there is one (Linux, WireKit's own queues), otherwise a
/// Dispatch timer source.
///
/// On an event loop, scheduling from the loop's thread (inside a socket's handler, the usual
/// case: a read moves a keepalive or ping deadline) costs no system call and wakes no thread;
/// a Dispatch timer re-scheduled from a worker wakes libdispatch's manager thread, and one that
/// fires costs the manager's wake-up and a worker's.
///
/// Make it, schedule it and cancel it on `queue` only (the loop is found there).
/// `@unchecked Sendable`: its mutable state is confined to `queue`.
package final class QueueTimer: @unchecked Sendable {
    let queue: DispatchQueue
    let id: UInt64
    private let loop: EventLoop?
    private let leeway: DispatchTimeInterval
    private var handler: (() -> Void)?
    private var source: DispatchSourceTimer?
    /// The deadline the loop was given last (event-loop path).
    private var scheduled: MonotonicInstant?

    /// A timer for `queue`, on which this must be called; nothing fires before `schedule`.
    /// - Parameters:
    ///   - leeway: how late a Dispatch timer may fire (the loop fires within a millisecond).
    ///   - handler: runs on `queue` each time a scheduled deadline is reached.
    package init(queue: DispatchQueue, leeway: DispatchTimeInterval = .milliseconds(1), handler: @escaping () -> Void) {
        self.queue = queue
        self.leeway = leeway
        self.handler = handler
        let loop = EventLoop.current
        self.loop = loop
        id = loop?.makeTimerID() ?? 0
    }

    /// Fires once at `deadline` (an uptime instant, as `DispatchTime.uptimeNanoseconds`),
    /// replacing the previous schedule. A deadline already past fires as soon as possible.
    package func schedule(at deadline: MonotonicInstant) {
        guard let handler else { return }
        if let loop {
            scheduled = deadline
            loop.schedule(self, at: deadline)
            return
        }
        let when = DispatchTime(uptimeNanoseconds: deadline.nanoseconds)
        if let source {
            source.schedule(deadline: when, leeway: leeway)
            return
        }
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: when, leeway: leeway)
        source.setEventHandler(handler: handler)
        self.source = source
        source.resume()
    }

    /// Fires nothing until scheduled again.
    package func unschedule() {
        if let loop {
            guard scheduled != nil else { return }
            scheduled = nil
            loop.unschedule(self)
        } else {
            source?.schedule(deadline: .distantFuture)
        }
    }

    /// Never fires again; drops the handler (and what it holds).
    package func cancel() {
        unschedule()
        handler = nil
        source?.cancel()
        source = nil
    }

    /// The loop reached `deadline`: runs the handler if that is still the schedule. On `queue`.
    func fire(scheduledFor deadline: MonotonicInstant) {
        guard scheduled == deadline, let handler else { return }
        scheduled = nil
        handler()
    }
}
