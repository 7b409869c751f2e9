import Foundation
import WireKit

/// A `LogSink` that keeps every record, for tests that assert what the library logged over real
/// connections. `@unchecked Sendable`: `stored` is only touched under `lock`.
public final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [LogRecord] = []

    public init() {}

    /// A sink writing here, from `minimumLevel` up (every level by default).
    public func sink(minimumLevel: LogLevel = .trace) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { [self] record in lock.withLock { stored.append(record) } }
    }

    /// Everything logged so far, in order.
    public var records: [LogRecord] { lock.withLock { stored } }

    /// The records of `subsystem` whose message is `message`.
    public func records(_ subsystem: LogSubsystem, _ message: String) -> [LogRecord] {
        records.filter { $0.subsystem == subsystem && $0.message == message }
    }

    /// The first record of `subsystem` with `message` that satisfies `condition`, waiting up to
    /// `timeout` for it; nil if none came.
    public func first(
        _ subsystem: LogSubsystem, _ message: String, timeout: Duration = .seconds(10),
        where condition: (LogRecord) -> Bool = { _ in true }
    ) async -> LogRecord? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let record = records(subsystem, message).first(where: condition) { return record }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The records as `level subsystem: message key=value…` lines, for failure messages.
    public var transcript: String { records.map(\.description).joined(separator: "\n") }
}
