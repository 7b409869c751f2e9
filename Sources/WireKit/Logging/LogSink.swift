/// Where the library's log records go: a closure and the least level it wants. Logging is off by
/// default (`LogSink.off`); a disabled sink, or a record below `minimumLevel`, costs one
/// comparison and builds neither the message nor the metadata.
///
/// Bridge it to the logging system the application uses (swift-log's `Logger`, Apple's
/// `os.Logger`, a file) in a few lines; <doc:Logging> shows both bridges.
public struct LogSink: Sendable {
    /// Records below this level are not built.
    public var minimumLevel: LogLevel
    @usableFromInline let write: (@Sendable (LogRecord) -> Void)?

    /// A sink that hands every record at `minimumLevel` or above to `write`, on the thread of the
    /// connection or session that logged it: keep `write` short and thread-safe.
    public init(minimumLevel: LogLevel = .info, _ write: @escaping @Sendable (LogRecord) -> Void) {
        self.minimumLevel = minimumLevel
        self.write = write
    }

    private init() {
        minimumLevel = .error
        write = nil
    }

    /// Logs nothing (the default everywhere).
    public static let off = LogSink()

    /// Whether a record of `level` would be written.
    @inlinable
    public func isEnabled(_ level: LogLevel) -> Bool {
        write != nil && level >= minimumLevel
    }

    /// Writes a record when `level` is enabled; `message` and `metadata` are evaluated only then.
    @inlinable
    public func log(
        _ level: LogLevel, _ subsystem: LogSubsystem, _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:], file: String = #fileID, line: Int = #line
    ) {
        guard let write, level >= minimumLevel else { return }
        write(LogRecord(level: level, subsystem: subsystem, message: message(), metadata: metadata(), file: file, line: line))
    }
}
