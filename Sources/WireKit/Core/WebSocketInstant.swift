/// A point on a monotonic clock, in nanoseconds from an arbitrary origin. The sans-I/O core never
/// reads a clock: the driver passes the current instant in (for example
/// `DispatchTime.now().uptimeNanoseconds`), and tests pass a manual one.
public struct WebSocketInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: UInt64

    /// The instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The instant `duration` later, saturating at the clock's end; negative durations count as 0.
    public static func + (lhs: WebSocketInstant, rhs: Duration) -> WebSocketInstant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.wireKitNanoseconds)
        return WebSocketInstant(nanoseconds: overflow ? .max : sum)
    }

    /// The time from `rhs` to `lhs`, zero if `rhs` is later.
    public static func - (lhs: WebSocketInstant, rhs: WebSocketInstant) -> Duration {
        lhs.nanoseconds > rhs.nanoseconds ? .nanoseconds(Int64(clamping: lhs.nanoseconds - rhs.nanoseconds)) : .zero
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: WebSocketInstant, rhs: WebSocketInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The nanoseconds with an `ns` suffix.
    public var description: String { "\(nanoseconds)ns" }
}

extension Duration {
    /// This duration in whole nanoseconds, clamped to `0...UInt64.max`.
    var wireKitNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, overflow2) = whole.addingReportingOverflow(UInt64(max(0, attoseconds) / 1_000_000_000))
        return overflow2 ? .max : total
    }
}
