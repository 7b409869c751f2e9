/// A point on a monotonic clock, in milliseconds. The session core never reads a clock: every
/// input carries `now`, so tests drive it with a manual clock.
public struct SessionInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since an arbitrary, fixed origin (e.g. system boot).
    public var milliseconds: Int64

    /// An instant `milliseconds` after the clock's origin.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instant `milliseconds` later (saturating, so huge timeouts never trap).
    public func advanced(by milliseconds: Int64) -> SessionInstant {
        let (sum, overflow) = self.milliseconds.addingReportingOverflow(milliseconds)
        return SessionInstant(milliseconds: overflow ? Int64.max : sum)
    }

    /// Milliseconds from `self` to `other` (negative when `other` is earlier).
    public func distance(to other: SessionInstant) -> Int64 {
        let (difference, overflow) = other.milliseconds.subtractingReportingOverflow(milliseconds)
        return overflow ? (other > self ? Int64.max : Int64.min) : difference
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: SessionInstant, rhs: SessionInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The milliseconds with an `ms` suffix.
    public var description: String { "\(milliseconds) ms" }
}

extension Duration {
    /// Whole milliseconds in this duration, clamped to `0...Int64.max`.
    var wholeMilliseconds: Int64 {
        let parts = components
        if parts.seconds < 0 { return 0 }
        let (ms, overflow) = parts.seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return Int64.max }
        return ms + parts.attoseconds / 1_000_000_000_000_000
    }
}
