/// A point on a monotonic clock, in nanoseconds from an arbitrary, fixed origin (for example
/// system boot). The one instant type of the three sans-I/O cores (WireKit's
/// `WebSocketStateMachine`, the client's `ClientSession`, the broker's `BrokerCore`): none of
/// them reads a clock; every input carries `now`, so tests drive them with a manual clock.
package struct MonotonicInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    package var nanoseconds: UInt64

    /// The instant `nanoseconds` after the clock's origin.
    package init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The instant `rhs` later, saturating at the clock's end; negative durations count as 0.
    package static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.saturatingNanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? .max : sum)
    }

    /// The time from `rhs` to `lhs`, zero if `rhs` is later.
    package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        lhs.nanoseconds > rhs.nanoseconds ? .nanoseconds(Int64(clamping: lhs.nanoseconds - rhs.nanoseconds)) : .zero
    }

    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    package var description: String { "\(nanoseconds)ns" }
}

extension Duration {
    /// This duration in whole nanoseconds, clamped to `0...UInt64.max`.
    package var saturatingNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, overflow2) = whole.addingReportingOverflow(UInt64(max(0, attoseconds) / 1_000_000_000))
        return overflow2 ? .max : total
    }

    /// Whole milliseconds in this duration, clamped to `0...Int64.max` (the unit of every
    /// timeout on the SocketCluster wire).
    package var wholeMilliseconds: Int64 {
        let parts = components
        if parts.seconds < 0 { return 0 }
        let (ms, overflow) = parts.seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return Int64.max }
        let (sum, overflow2) = ms.addingReportingOverflow(parts.attoseconds / 1_000_000_000_000_000)
        return overflow2 ? Int64.max : max(0, sum)
    }
}
