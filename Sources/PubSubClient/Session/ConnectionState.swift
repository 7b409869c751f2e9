/// Client connection state (Protocol.md §4). `open` means the SocketCluster handshake completed,
/// not merely that the WebSocket is open.
///
/// This set is closed: socketcluster-client's three states, so an exhaustive `switch` is safe.
public enum ConnectionState: String, Sendable, Hashable {
    /// No connection, and none being made (before `connect()`, after `disconnect()`, or between reconnect attempts).
    case closed
    /// The WebSocket is being opened or the SocketCluster handshake is in progress.
    case connecting
    /// The SocketCluster handshake completed: calls are sent at once.
    case open
}
