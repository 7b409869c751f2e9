/// Identifies one local call (invoke, publish with ack, subscribe with ack, authenticate) from
/// the moment it is made until it completes. Not the wire `cid`: a cid is assigned only when the
/// packet is written, as the JS client does.
public struct CallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Sequence number, unique for the lifetime of one session.
    public let rawValue: UInt64
    /// Wraps a sequence number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Orders calls by when they were made.
    public static func < (lhs: CallID, rhs: CallID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `call#` and the number, for example `call#3`.
    public var description: String { "call#\(rawValue)" }
}

/// Identifies one invoke received from the server, so it can be answered exactly once.
public struct ServerRequestID: Sendable, Hashable, CustomStringConvertible {
    /// The connection the request arrived on; a reply after that connection ended is refused.
    public let connection: UInt64
    /// The server's `cid`, echoed as `rid` in the reply.
    public let cid: Int64
    /// Identifies request `cid` on connection number `connection`.
    public init(connection: UInt64, cid: Int64) {
        self.connection = connection
        self.cid = cid
    }
    /// The request's cid and connection, in words.
    public var description: String { "request \(cid) on connection \(connection)" }
}

/// Identifies one transport (WebSocket) opened by the session, so events from a transport that
/// was already abandoned are ignored.
public struct TransportID: Sendable, Hashable, CustomStringConvertible {
    /// Sequence number of the transport within its session.
    public let rawValue: UInt64
    /// Wraps a sequence number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// `transport#` and the number.
    public var description: String { "transport#\(rawValue)" }
}
