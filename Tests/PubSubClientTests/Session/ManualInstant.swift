@testable import PubSubClient

/// The session tests count time in milliseconds, the unit of every SocketCluster timeout.
extension MonotonicInstant {
    init(milliseconds: Int64) { self.init(nanoseconds: UInt64(milliseconds) * 1_000_000) }

    func advanced(by milliseconds: Int64) -> MonotonicInstant { self + .milliseconds(milliseconds) }
}

extension MonotonicInstant {
    /// Whole milliseconds from `self` to `other` (negative when `other` is earlier).
    func distance(to other: MonotonicInstant) -> Int64 {
        other >= self ? (other - self).wholeMilliseconds : -(self - other).wholeMilliseconds
    }
}
