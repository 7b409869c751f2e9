@_spi(Cores) import MonotonicTime

/// Checks how a core behaves towards its peer and its driver, whatever the messages:
/// close codes a peer may put in a close frame, and deadlines that are never in the past.
/// (Actions on a closed connection are caught where the simulator carries them out.)
package enum ConductChecker {
    /// RFC 6455 §7.4: a close frame may carry 1000–1003, 1007–1014 and 3000–4999; 1004, 1005,
    /// 1006 and 1015 are reserved and never sent, nor is anything below 1000 or above 4999.
    package static func closeCode(_ code: UInt16, sentBy who: String, at time: MonotonicInstant) -> Violation? {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return nil
        default: return Violation(.protocolConduct, at: time, "\(who) sent close code \(code), which no endpoint may send")
        }
    }

    /// After an input at `now`, a core's next deadline must not be earlier than `now` (the driver
    /// would arm a timer in the past); after `timeElapsed(now:)` it must be later than `now`
    /// (everything due has run).
    package static func deadline(
        _ deadline: MonotonicInstant?, of who: String, after input: String, now: MonotonicInstant, timersRan: Bool,
        at time: MonotonicInstant
    ) -> Violation? {
        guard let deadline else { return nil }
        if deadline < now || (timersRan && deadline == now) {
            let late = now - deadline
            return Violation(
                .protocolConduct, at: time,
                "\(who) reports a deadline \(late) in the past after \(input)\(timersRan ? " (its timers had just run)" : "")")
        }
        return nil
    }
}
