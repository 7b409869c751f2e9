/// How much a log record matters, from the most detailed to the most severe. The same seven levels
/// as swift-log's `Logger.Level`, so a bridge maps them one to one.
///
/// This set is closed: it mirrors swift-log's levels, so an exhaustive `switch` over it (a bridge
/// to swift-log or os_log) stays valid.
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
    /// A failure that leaves the library or the application unable to go on. WireKit and the
    /// SocketCluster client and broker do not log at this level today; it is here so a bridge
    /// maps every swift-log level, and for sinks shared with application code.
    case critical

    /// Orders levels from ``trace`` (least severe) to ``critical``.
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
        case .critical: "critical"
        }
    }
}
