#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `WebSocketStateMachine` reports to its driver, in order.
package enum WebSocketEvent: Sendable, Hashable {
    /// The opening handshake succeeded. (Boxed, like `closed`, so the frequent message cases
    /// stay small and cheap to move.)
    indirect case opened(WebSocketHandshakeInfo)
    /// A complete text message, UTF-8 validated.
    case text(String)
    /// A complete binary message.
    case binary(Data)
    /// The peer pinged us; the machine answers it by itself (while an earlier pong is still
    /// waiting to be written, the pings meanwhile get one pong, carrying the latest payload).
    case ping(Data)
    /// The peer sent a pong (solicited or not).
    case pong(Data)
    /// A pong answered the ping returned by `ping(timeout:now:)` with this id (or a later one).
    case pingCompleted(WebSocketPingID)
    /// No pong arrived within the ping's timeout. The connection stays open.
    case pingTimedOut(WebSocketPingID)
    /// The connection is over. Emitted exactly once; nothing but output follows it.
    indirect case closed(WebSocketCloseInfo)
}

/// What the opening handshake settled.
public struct WebSocketHandshakeInfo: Sendable, Hashable {
    /// The negotiated subprotocol, if any.
    public var subprotocol: String?
    /// Client role: the server's response headers. Server role: the client's request headers.
    public var headers: HTTPHeaders
    /// The request target (path and query) of the upgrade request.
    public var resourceName: String
    /// What permessage-deflate settled, when it was negotiated.
    public var perMessageDeflate: PerMessageDeflateParameters?

    /// What a handshake settled.
    public init(subprotocol: String?, headers: HTTPHeaders, resourceName: String, perMessageDeflate: PerMessageDeflateParameters? = nil) {
        self.subprotocol = subprotocol
        self.headers = headers
        self.resourceName = resourceName
        self.perMessageDeflate = perMessageDeflate
    }
}

/// How a connection ended.
public struct WebSocketCloseInfo: Sendable, Hashable {
    /// The peer's close code after a close handshake (1005 if its frame had none), the code we
    /// sent when we failed the connection, or 1006 when it ended without a close frame.
    public var code: WebSocketCloseCode
    /// The close reason that came with `code`, possibly empty.
    public var reason: String
    /// `true` when both close frames were exchanged.
    public var wasClean: Bool
    /// Why the connection failed, when it did.
    public var error: WebSocketError?

    /// How a connection ended.
    public init(code: WebSocketCloseCode, reason: String, wasClean: Bool, error: WebSocketError?) {
        self.code = code
        self.reason = reason
        self.wasClean = wasClean
        self.error = error
    }
}

/// Identifies a ping sent with `WebSocketStateMachine.ping(timeout:now:)`, so the driver can
/// complete the matching caller when the pong arrives.
package struct WebSocketPingID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Sequence number, increasing from 1 per connection.
    package var rawValue: UInt64
    /// The ping numbered `rawValue`.
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Orders pings by when they were sent.
    package static func < (lhs: WebSocketPingID, rhs: WebSocketPingID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `ping#` and the number, for example `ping#3`.
    package var description: String { "ping#\(rawValue)" }
}

/// Which end of the connection a state machine plays.
public enum WebSocketRole: Sendable, Hashable {
    /// Sends masked frames, expects unmasked ones; starts the handshake.
    case client
    /// Sends unmasked frames, requires masked ones; answers the handshake.
    case server
}
