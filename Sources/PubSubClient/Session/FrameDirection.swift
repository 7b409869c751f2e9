/// Which way a WebSocket frame went, for `SessionConfiguration.frameObserver`.
public enum FrameDirection: String, Sendable, Hashable {
    /// Written by the client.
    case sent
    /// Received from the server.
    case received
}
