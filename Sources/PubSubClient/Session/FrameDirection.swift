/// Which way a WebSocket frame went, for `SessionConfiguration.frameObserver`.
///
/// This set is closed: a frame is sent or received.
public enum FrameDirection: String, Sendable, Hashable {
    /// Written by the client.
    case sent
    /// Received from the server.
    case received
}
