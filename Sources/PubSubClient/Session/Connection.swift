/// Where the session's connection is, with the data that exists only in that phase: closing is
/// one assignment, not a list of fields to reset.
enum Connection: Sendable {
    /// No connection. `reconnectAt` is when the scheduled reconnect happens, if one is.
    case closed(reconnectAt: MonotonicInstant?)
    /// A transport was requested; the handshake has not completed.
    case connecting(Link)
    /// The handshake completed with `HandshakeInfo`.
    case open(Link, HandshakeInfo)

    /// The public summary.
    var state: ConnectionState {
        switch self {
        case .closed: return .closed
        case .connecting: return .connecting
        case .open: return .open
        }
    }

    /// The current transport, unless closed. A copy, with a retain and a release of each
    /// reference the link holds: the checks made on every message read the fields below.
    var link: Link? {
        switch self {
        case .closed: return nil
        case .connecting(let link), .open(let link, _): return link
        }
    }

    /// The current transport's id, unless closed.
    var transportID: TransportID? {
        switch self {
        case .closed: return nil
        case .connecting(let link), .open(let link, _): return link.transport
        }
    }

    /// Whether the current transport's WebSocket is open.
    var isTransportOpen: Bool {
        switch self {
        case .closed: return false
        case .connecting(let link), .open(let link, _): return link.isOpen
        }
    }

    /// When the current attempt fails unless its WebSocket opened (`Link.openDeadline`).
    var openDeadline: MonotonicInstant? {
        switch self {
        case .closed: return nil
        case .connecting(let link), .open(let link, _): return link.openDeadline
        }
    }
}

/// One transport of the session, from its request to its close.
struct Link: Sendable {
    /// The id the driver reports this transport's events with.
    let transport: TransportID
    /// When the attempt fails with 4007 unless the WebSocket opened; nil once it has.
    var openDeadline: MonotonicInstant?
    /// Whether the WebSocket is open (the SocketCluster handshake may still be pending).
    var isOpen = false
    /// The token the handshake sent, adopted if the server accepts it.
    var handshakeToken: String?
    /// `deauthenticate` came after the handshake was sent with a token: if the server accepts
    /// that token, it is told `#removeAuthToken` at once.
    var deauthenticateAfterHandshake = false
    /// Server invokes (by cid) not answered yet.
    var openRequests: Set<ServerRequestID> = []
    /// `connect` calls waiting for this attempt's handshake; empty once open.
    var connectCalls: [CallID] = []
    /// `#authenticate` invokes sent on this transport whose calls timed out or were cancelled,
    /// by cid: a late answer still says whether the server authenticated the socket.
    var abandonedAuthenticates: [Int64: AbandonedAuthenticate] = [:]

    init(transport: TransportID, openDeadline: MonotonicInstant) {
        self.transport = transport
        self.openDeadline = openDeadline
    }
}

/// An `authenticate` call that timed out or was cancelled while its `#authenticate` was on the wire.
struct AbandonedAuthenticate: Sendable {
    var call: CallID
    var token: String
}

/// Packets collected between `startBatch()` and `flushBatch()`.
struct Batch: Sendable {
    /// Serialized packets, in order.
    var packets: [[UInt8]] = []
    /// The cids of the invokes among them.
    var cids: [Int64] = []
}
