/// One thing the library reports: its level, subsystem, message and metadata (connection id,
/// socket id, close code...), and where in the library's source it was logged.
///
/// Safe to print as it is: the library escapes the peer's text (a close reason, an HTTP
/// `Location`, a channel name, a socket id the server chose) with `escapedForDisplay` when it
/// builds a record, so no record it writes carries a raw control, bidi or invisible character
/// and a peer cannot clear a terminal or forge a log line through it. The data itself, verbatim,
/// is in the events and errors of the API. Records you build yourself: escape what came from a
/// peer the same way.
public struct LogRecord: Sendable, Equatable, CustomStringConvertible {
    /// How much it matters.
    public var level: LogLevel
    /// The part of the stack that logged it.
    public var subsystem: LogSubsystem
    /// What happened, in words; details go in ``metadata``.
    public var message: String
    /// Key-value context, for example `["connection": "17", "code": "1002"]`.
    public var metadata: [String: String]
    /// The library source file (`#fileID`) and line that logged it.
    public var file: String
    /// The line in ``file``.
    public var line: Int

    /// A record; `file` and `line` default to the caller's.
    public init(
        level: LogLevel, subsystem: LogSubsystem, message: String, metadata: [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) {
        self.level = level
        self.subsystem = subsystem
        self.message = message
        self.metadata = metadata
        self.file = file
        self.line = line
    }

    /// `level subsystem: message key=value ...`, metadata sorted by key.
    public var description: String {
        var text = "\(level) \(subsystem): \(message)"
        for key in metadata.keys.sorted() { text += " \(key)=\(metadata[key] ?? "")" }
        return text
    }
}
