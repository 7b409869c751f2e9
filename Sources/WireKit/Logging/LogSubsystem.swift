/// Which part of the stack a log record comes from; a bridge passes it on as the label, category
/// or source of the record.
public struct LogSubsystem: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The label, for example `websocket`.
    public var rawValue: String

    /// The subsystem labelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// TCP: name resolution, connecting, accepting, socket errors.
    public static let transport = LogSubsystem(rawValue: "transport")
    /// TLS: handshakes, certificate verification, OpenSSL's reasons.
    public static let tls = LogSubsystem(rawValue: "tls")
    /// The WebSocket protocol: upgrade, close handshake, protocol violations, limits.
    public static let webSocket = LogSubsystem(rawValue: "websocket")
    /// The SocketCluster client session: handshake, reconnect decisions, authentication.
    public static let session = LogSubsystem(rawValue: "session")
    /// The SocketCluster broker: connections, disconnections, rejected sockets.
    public static let broker = LogSubsystem(rawValue: "broker")

    /// The label.
    public var description: String { rawValue }
}
