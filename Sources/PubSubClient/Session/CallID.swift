/// Identifies one local call (invoke, publish with ack, subscribe with ack, authenticate) from
/// the moment it is made until it completes. Not the wire `cid`: a cid is assigned only when the
/// packet is written, as the JS client does.
package struct CallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Sequence number, unique for the lifetime of one session.
    package let rawValue: UInt64
    /// Wraps a sequence number.
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Orders calls by when they were made.
    package static func < (lhs: CallID, rhs: CallID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `call#` and the number, for example `call#3`.
    package var description: String { "call#\(rawValue)" }
}

/// Identifies one invoke received from the server, so it can be answered exactly once.
public struct ServerRequestID: Sendable, Hashable, CustomStringConvertible {
    /// The connection the request arrived on; a reply after that connection ended is refused.
    public let connection: UInt64
    /// The server's `cid`, echoed as `rid` in the reply (0 when the cid was not an `Int64`; the
    /// reply then carries the cid's wire text).
    public let cid: Int64
    /// The cid's wire text when it was not written as the decimal `Int64` `cid` holds (`1.5`,
    /// `1e30`, `9223372036854775808`): the reply's `rid` is this text, unchanged.
    let cidText: String?
    /// Identifies request `cid` on connection number `connection`.
    package init(connection: UInt64, cid: Int64) {
        self.connection = connection
        self.cid = cid
        self.cidText = nil
    }

    init(connection: UInt64, cid: Int64, cidText: String?) {
        self.connection = connection
        self.cid = cidText == nil ? cid : 0
        self.cidText = cidText
    }

    /// The request's cid and connection, in words.
    public var description: String { "request \(cidText ?? String(cid)) on connection \(connection)" }
}

/// Identifies one transport (WebSocket) opened by the session, so events from a transport that
/// was already abandoned are ignored.
package struct TransportID: Sendable, Hashable, CustomStringConvertible {
    /// Sequence number of the transport within its session.
    package let rawValue: UInt64
    /// Wraps a sequence number.
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    /// `transport#` and the number.
    package var description: String { "transport#\(rawValue)" }
}
