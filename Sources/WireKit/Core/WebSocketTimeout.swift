/// Which of WireKit's timers ran out, with the limit that was exceeded.
public enum WebSocketTimeout: Sendable, Hashable, CustomStringConvertible {
    /// The opening handshake took longer than `handshakeTimeout`.
    case handshake(limit: Duration)
    /// No close frame answered ours within `closeTimeout`.
    case closingHandshake(limit: Duration)
    /// Keepalive: nothing was received within this time of a keepalive ping.
    case keepalive(limit: Duration)
    /// No pong answered a `ping(timeout:)` within its timeout.
    case pong(limit: Duration)
    /// A message did not finish within `messageTimeout` of its first frame (close code 1008).
    case message(limit: Duration)

    /// Which limit ran out and how long it was, in words.
    public var description: String {
        switch self {
        case .handshake(let limit): "the opening handshake took longer than \(limit)"
        case .closingHandshake(let limit): "no close frame from the peer within \(limit)"
        case .keepalive(let limit): "keepalive: nothing received within \(limit) of a ping"
        case .pong(let limit): "no pong within \(limit)"
        case .message(let limit): "a message did not finish within \(limit) of its first frame"
        }
    }
}
