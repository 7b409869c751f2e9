/// Which server pings the client answers: one protocol version's (see
/// `SocketClusterProtocolVersion` for the texts), or both.
public enum PingProtocolVersion: Sendable, Hashable {
    /// socketcluster-server ≤ 14 (or `protocolVersion: 1`).
    case v1
    /// socketcluster-server 15–19 default.
    case v2
    /// Answers both kinds. Safe because neither ping text can be a JSON packet.
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
