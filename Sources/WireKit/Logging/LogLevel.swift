/// How much a log record matters, from the most detailed to the most severe. The same six levels
/// as swift-log's `Logger.Level` (without `critical`), so a bridge maps them one to one.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Every step: frames, timer decisions. Costly; for chasing a bug.
    case trace
    /// What a developer wants while integrating: connection attempts, handshakes, pings.
    case debug
    /// Lifecycle events worth keeping in production logs: connected, disconnected, reconnecting.
    case info
    /// Something unusual that the library handled: a limit hit, a slow consumer closed.
    case notice
    /// A failure the library recovers from: a refused connection before a retry, a rejected handshake.
    case warning
    /// A failure the application must know about: a protocol violation by the peer, a TLS failure.
    case error

    /// Orders levels from ``trace`` (least severe) to ``error``.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name in lower case, for example `warning`.
    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
