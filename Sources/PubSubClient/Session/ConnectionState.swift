/// Client connection state (Protocol.md §4). `open` means the SocketCluster handshake completed,
/// not merely that the WebSocket is open.
public enum ConnectionState: String, Sendable, Hashable {
    case closed
    case connecting
    case open
}
