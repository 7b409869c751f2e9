@_spi(Cores) import MonotonicTime

/// A broken invariant: which one, when (simulated time since the start) and what exactly.
package struct Violation: Sendable, Equatable, CustomStringConvertible {
    /// The invariants the simulator checks.
    package enum Invariant: String, Sendable, CaseIterable {
        /// Every call completes exactly once (answer, typed error or timeout), and all have by quiescence.
        case callCompletesOnce = "call-completes-once"
        /// Acknowledged publications reach every continuously subscribed client once, in order per
        /// publisher; nothing reaches a client that is not subscribed.
        case delivery = "delivery"
        /// After faults stop, connection, subscriptions and auth agree with the broker within a bound.
        case convergence = "convergence"
        /// Queues within their limits; no per-connection state left behind by reconnects.
        case boundedMemory = "bounded-memory"
        /// No action on a closed connection, no deadline in the past, close codes a peer may send.
        case protocolConduct = "protocol-conduct"
    }

    package var invariant: Invariant
    package var time: MonotonicInstant
    package var message: String

    package init(_ invariant: Invariant, at time: MonotonicInstant, _ message: String) {
        self.invariant = invariant
        self.time = time
        self.message = message
    }

    package var description: String { "[\(Trace.format(time))] \(invariant.rawValue): \(message)" }
}
