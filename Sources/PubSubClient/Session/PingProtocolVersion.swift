/// Which server ping the client answers (spec §2.4).
public enum PingProtocolVersion: Sendable, Hashable {
    /// socketcluster-server ≤ 14 (or `protocolVersion: 1`): `#1` answered with `#2`.
    case v1
    /// socketcluster-server 15–19 default: empty frame answered with an empty frame.
    case v2
    /// Answers both kinds. Safe because neither string can be a JSON packet.
    case automatic

    func pong(for text: String) -> String? {
        switch (self, text) {
        case (.v2, ""), (.automatic, ""): return ""
        case (.v1, "#1"), (.automatic, "#1"): return "#2"
        default: return nil
        }
    }
}
