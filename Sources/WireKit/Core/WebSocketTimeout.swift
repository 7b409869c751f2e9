/// Which of WireKit's timers ran out, with the limit that was exceeded: the detail of a
/// ``WebSocketError`` whose code is ``WebSocketError/Code/timedOut``.
///
/// A struct rather than an enum because the set of timers grows with the options: a new timer
/// comes as a new ``Kind`` constant, which does not break a `switch` that has `default:`.
public struct WebSocketTimeout: Sendable, Hashable, CustomStringConvertible {
    /// Which timer ran out. New kinds may be added in minor releases; match with `default:`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, e.g. `"keepalive"`.
        public var rawValue: String
        /// The kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// The opening handshake took longer than `handshakeTimeout`.
        public static let handshake = Kind(rawValue: "handshake")
        /// No close frame answered ours within `closeTimeout`.
        public static let closingHandshake = Kind(rawValue: "closingHandshake")
        /// Keepalive: nothing was received within this time of a keepalive ping.
        public static let keepalive = Kind(rawValue: "keepalive")
        /// No pong answered a `ping(timeout:)` within its timeout.
        public static let pong = Kind(rawValue: "pong")
        /// A message did not finish within `messageTimeout` of its first frame (close code 1008).
        public static let message = Kind(rawValue: "message")
    }

    /// Which timer ran out.
    public var kind: Kind
    /// The limit that was exceeded.
    public var limit: Duration

    /// The timer `kind` ran out after `limit`.
    public init(kind: Kind, limit: Duration) {
        self.kind = kind
        self.limit = limit
    }

    /// Which limit ran out and how long it was, in words.
    public var description: String {
        switch kind {
        case .handshake: "the opening handshake took longer than \(limit)"
        case .closingHandshake: "no close frame from the peer within \(limit)"
        case .keepalive: "keepalive: nothing received within \(limit) of a ping"
        case .pong: "no pong within \(limit)"
        case .message: "a message did not finish within \(limit) of its first frame"
        default: "the \(kind) timer ran out after \(limit)"
        }
    }
}

extension WebSocketTimeout {
    /// The opening handshake took longer than `limit`.
    package static func handshake(limit: Duration) -> Self { Self(kind: .handshake, limit: limit) }
    /// No close frame within `limit`.
    package static func closingHandshake(limit: Duration) -> Self { Self(kind: .closingHandshake, limit: limit) }
    /// Nothing received within `limit` of a keepalive ping.
    package static func keepalive(limit: Duration) -> Self { Self(kind: .keepalive, limit: limit) }
    /// No pong within `limit`.
    package static func pong(limit: Duration) -> Self { Self(kind: .pong, limit: limit) }
    /// A message unfinished after `limit`.
    package static func message(limit: Duration) -> Self { Self(kind: .message, limit: limit) }
}
