/// A WebSocket close code with SocketCluster's meaning (Protocol.md §11).
public struct SocketClusterCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// What the JS client does after a close with this code when auto-reconnect is on.
    public enum Reconnect: Sendable, Hashable {
        /// Reconnect with no delay on the first attempt (4000, 4001, 1005).
        case immediately
        /// Reconnect after the exponential back-off delay.
        case withBackoff
        /// Stay closed (1000 and 4500–4999).
        case never
    }

    /// The numeric close code.
    public let rawValue: UInt16

    /// Wraps a numeric close code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Wraps a numeric close code.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Deliberate close; no error, no reconnect.
    public static let normal = SocketClusterCloseCode(1000)
    /// Going away.
    public static let goingAway = SocketClusterCloseCode(1001)
    /// WebSocket protocol error.
    public static let protocolError = SocketClusterCloseCode(1002)
    /// Unacceptable data type.
    public static let unsupportedData = SocketClusterCloseCode(1003)
    /// Closed without a status code (never sent on the wire).
    public static let noStatusReceived = SocketClusterCloseCode(1005)
    /// Connection dropped without a close frame (never sent on the wire).
    public static let abnormalClosure = SocketClusterCloseCode(1006)
    /// Invalid payload, e.g. bad UTF-8 in a text frame.
    public static let invalidFramePayloadData = SocketClusterCloseCode(1007)
    /// Policy violation.
    public static let policyViolation = SocketClusterCloseCode(1008)
    /// Message larger than the peer accepts.
    public static let messageTooBig = SocketClusterCloseCode(1009)
    /// A required extension was not negotiated.
    public static let mandatoryExtension = SocketClusterCloseCode(1010)
    /// Unexpected server condition.
    public static let internalServerError = SocketClusterCloseCode(1011)
    /// Client: no ping within `pingTimeout`.
    public static let serverPingTimedOut = SocketClusterCloseCode(4000)
    /// Server: no pong within `pingTimeout`.
    public static let clientPongTimedOut = SocketClusterCloseCode(4001)
    /// Server could not sign an auth token.
    public static let authTokenSigningFailed = SocketClusterCloseCode(4002)
    /// Client: the handshake timed out or failed without a status code.
    public static let handshakeFailed = SocketClusterCloseCode(4003)
    /// Client could not save an auth token (unused by v15+).
    public static let authTokenSaveFailed = SocketClusterCloseCode(4004)
    /// Server: no `#handshake` within `handshakeTimeout`.
    public static let handshakeTimedOut = SocketClusterCloseCode(4005)
    /// Server could not bind the socket to its broker (unused by v15+).
    public static let brokerBindFailed = SocketClusterCloseCode(4006)
    /// Client: the WebSocket did not open within `connectTimeout`.
    public static let connectTimedOut = SocketClusterCloseCode(4007)
    /// Server: handshake middleware block or malformed `#handshake`/`#authenticate`.
    public static let handshakeRejected = SocketClusterCloseCode(4008)
    /// Server (`strictHandshake`): a frame arrived before the `#handshake`.
    public static let messageBeforeHandshake = SocketClusterCloseCode(4009)

    /// The sc-errors standard text, or nil for 1000 and codes SocketCluster does not define.
    public var standardText: String? {
        switch rawValue {
        case 1001: return "Socket was disconnected"
        case 1002: return "A WebSocket protocol error was encountered"
        case 1003: return "Server terminated socket because it received invalid data"
        case 1005: return "Socket closed without status code"
        case 1006: return "Socket hung up"
        case 1007: return "Message format was incorrect"
        case 1008: return "Encountered a policy violation"
        case 1009: return "Message was too big to process"
        case 1010: return "Client ended the connection because the server did not comply with extension requirements"
        case 1011: return "Server encountered an unexpected fatal condition"
        case 4000: return "Server ping timed out"
        case 4001: return "Client pong timed out"
        case 4002: return "Server failed to sign auth token"
        case 4003: return "Failed to complete handshake"
        case 4004: return "Client failed to save auth token"
        case 4005: return "Did not receive #handshake from client before timeout"
        case 4006: return "Failed to bind socket to message broker"
        case 4007: return "Client connection establishment timed out"
        case 4008: return "Server rejected handshake from client"
        case 4009: return "Server received a message before the client handshake"
        default: return nil
        }
    }

    /// The reconnect rule: 4000/4001/1005 immediately, 1000 and ≥ 4500 never, anything else with back-off.
    public var reconnect: Reconnect {
        switch rawValue {
        case 4000, 4001, 1005: return .immediately
        case 1000: return .never
        case 4500...: return .never
        default: return .withBackoff
        }
    }

    /// Whether the JS client reports this close as a `SocketProtocolError` (every code but 1000 and 1001).
    public var isError: Bool {
        rawValue != 1000 && rawValue != 1001
    }

    /// The `SocketProtocolError` message: the standard text, else
    /// `"Socket connection closed with status code <c>[ and reason: <r>]"`.
    public func errorMessage(reason: String?) -> String {
        if let standardText { return standardText }
        if let reason, !reason.isEmpty {
            return "Socket connection closed with status code \(rawValue) and reason: \(reason)"
        }
        return "Socket connection closed with status code \(rawValue)"
    }

    /// The reason to report for a close: the peer's reason, or the standard text when it sent none.
    public func reportedReason(_ reason: String?) -> String? {
        if let reason, !reason.isEmpty { return reason }
        return standardText
    }

    /// The number, e.g. `4000`.
    public var description: String { String(rawValue) }
}

extension SocketClusterCloseCode: ExpressibleByIntegerLiteral {
    /// A code written as a number, so `disconnect(code: 4000)` and `case 4001:` read as they do in
    /// the JavaScript client.
    public init(integerLiteral value: UInt16) { self.init(rawValue: value) }
}
