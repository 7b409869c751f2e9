/// Which server pings the client answers: one protocol version's (see
/// `SocketClusterProtocolVersion` for the texts), or both.
///
/// ``SessionConfiguration`` answers both by default (``automatic``), so a client connects to any
/// socketcluster-server without knowing its `protocolVersion`.
///
/// New cases may be added in a minor release (a new SocketCluster protocol version); switch with `default:`.
public enum PingProtocolVersion: Sendable, Hashable {
    /// Only `#1` (answered `#2`): socketcluster-server ≤ 14, or 15+ with `protocolVersion: 1`.
    /// An empty frame then surfaces as a raw message.
    case v1
    /// Only the empty frame (answered with an empty frame): socketcluster-server 15–19's default.
    /// `#1` then surfaces as a raw message.
    case v2
    /// Answers both kinds, the default. Safe because neither ping text can be a JSON packet.
    case automatic

    func pong(for text: String) -> String? {
        switch self {
        case .v1: return SocketClusterProtocolVersion.v1.pong(answering: text)
        case .v2: return SocketClusterProtocolVersion.v2.pong(answering: text)
        case .automatic:
            return SocketClusterProtocolVersion.v2.pong(answering: text) ?? SocketClusterProtocolVersion.v1.pong(answering: text)
        }
    }
}
