@_spi(Cores) import MonotonicTime
import Foundation

/// Simulated time: a monotonic instant that only moves when the simulator jumps it to the next
/// event, and the wall clock derived from it (JWT `iat`/`exp` are the only wall-time users).
package struct SimulatedClock: Sendable {
    /// Where a run starts (one simulated second after zero, so nothing underflows).
    package static let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    /// The wall-clock time at `start`: 2023-11-14T22:13:20Z.
    package static let wallStart = Date(timeIntervalSince1970: 1_700_000_000)

    /// The current simulated instant.
    package private(set) var now = SimulatedClock.start

    package init() {}

    /// Moves to `instant`; time never goes back (an earlier instant leaves it where it is).
    package mutating func advance(to instant: MonotonicInstant) {
        if instant > now { now = instant }
    }

    /// The simulated wall clock at `now`.
    package var wallClock: Date { Self.wallStart.addingTimeInterval(Double(elapsed.nanoseconds) / 1e9) }

    /// Simulated time since the run started.
    package var elapsed: MonotonicInstant { MonotonicInstant(nanoseconds: now.nanoseconds - Self.start.nanoseconds) }

    /// Simulated seconds since the run started, for traces.
    package var seconds: Double { Double(elapsed.nanoseconds) / 1e9 }
}
