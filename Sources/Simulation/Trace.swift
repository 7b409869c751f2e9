@_spi(Cores) import MonotonicTime

/// What happened in a run, one line per event, kept for the last `window` of simulated time so
/// that a failing seed can print the events that led to it. Recording stays cheap: a line is built
/// only when tracing is on, and old lines are dropped as time moves on.
package struct Trace: Sendable {
    /// One recorded event.
    package struct Line: Sendable, Equatable {
        /// Simulated time since the start of the run.
        package var time: MonotonicInstant
        /// What happened, in words.
        package var text: String
    }

    /// How much simulated time the trace keeps.
    package let window: Duration
    /// Whether lines are recorded at all (off for the fastest runs; a failing seed is replayed with it on).
    package let isOn: Bool
    package private(set) var lines: [Line] = []
    private var start = 0
    /// Lines recorded over the whole run, including the ones dropped from the window.
    package private(set) var recordedCount = 0
    /// A running FNV-1a hash of every line: equal digests mean equal runs.
    package private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325

    package init(window: Duration, isOn: Bool) {
        self.window = window
        self.isOn = isOn
    }

    /// Records `text` at `time` (simulated time since the start).
    package mutating func record(_ time: MonotonicInstant, _ text: @autoclosure () -> String) {
        guard isOn else { return }
        let text = text()
        recordedCount += 1
        digest = (digest ^ time.nanoseconds) &* 0x100_0000_01b3
        for byte in text.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        lines.append(Line(time: time, text: text))
        let cutoff = time.nanoseconds > UInt64(window.wholeNanoseconds) ? time.nanoseconds - UInt64(window.wholeNanoseconds) : 0
        while start < lines.count, lines[start].time.nanoseconds < cutoff { start += 1 }
        if start > 4096, start * 2 > lines.count {
            lines.removeFirst(start)
            start = 0
        }
    }

    /// The lines inside the window, oldest first.
    package var recent: ArraySlice<Line> { lines[start...] }

    /// The window as text: `[  12.345s] line`, one per line.
    package func rendered() -> String {
        var out = ""
        for line in recent {
            out += "[" + Self.format(line.time) + "] " + line.text + "\n"
        }
        return out
    }

    /// Seconds with milliseconds, right-aligned: `  12.345s`.
    package static func format(_ time: MonotonicInstant) -> String {
        let millis = time.nanoseconds / 1_000_000
        let fraction = String(millis % 1000)
        let seconds = String(millis / 1000)
        return String(repeating: " ", count: max(0, 5 - seconds.count)) + seconds + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (clamped to `Int64`).
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product &+ attoseconds / 1_000_000_000
    }
}
