/// The SocketCluster ping/pong dialect (Protocol.md §3).
///
/// New cases may be added in a minor release when SocketCluster defines a new dialect (and
/// `allCases` then grows with them); switch with `default:`.
public enum SocketClusterProtocolVersion: Int, Sendable, Hashable, CaseIterable {
    /// socketcluster-server ≤ 14 (or `protocolVersion: 1`): ping `#1`, pong `#2`.
    case v1 = 1
    /// socketcluster-server 15–19 default: ping and pong are both an empty text frame.
    case v2 = 2

    /// The server's ping frame text.
    public var pingText: String {
        switch self {
        case .v1: return "#1"
        case .v2: return ""
        }
    }

    /// The client's pong frame text.
    public var pongText: String {
        switch self {
        case .v1: return "#2"
        case .v2: return ""
        }
    }

    /// The pong to send when `text` is this version's ping, else nil.
    public func pong(answering text: String) -> String? {
        text == pingText ? pongText : nil
    }
}
