/// A close status code (RFC 6455 §7.4). Any `UInt16` can be represented so that codes received
/// from a peer can be reported and judged; the named constants are the registered ones.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent on the wire.
    public var rawValue: UInt16

    /// The code `rawValue`, registered or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The code `rawValue`, registered or not.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a data type the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: no status code was present in the close frame. Never sent on the wire.
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: the connection ended without a close frame. Never sent on the wire.
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: payload data inconsistent with its type (invalid UTF-8 in a text message).
    public static let invalidFramePayloadData = WebSocketCloseCode(1007)
    /// 1008: the message violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message is too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server hit an unexpected condition.
    public static let internalServerError = WebSocketCloseCode(1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// 1013: try again later.
    public static let tryAgainLater = WebSocketCloseCode(1013)
    /// 1014: a gateway got an invalid response upstream.
    public static let badGateway = WebSocketCloseCode(1014)
    /// 1015: the TLS handshake failed. Never sent on the wire.
    public static let tlsHandshakeFailure = WebSocketCloseCode(1015)

    /// Whether this code may appear in a close frame on the wire: 1000–1003, 1007–1014
    /// (registered with IANA) and 3000–4999 (libraries, frameworks and applications).
    /// 0–999, 1004–1006, 1015, the rest of 1016–2999 and 5000+ are invalid.
    @inlinable public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, for example `1000`.
    public var description: String { String(rawValue) }
}

extension WebSocketCloseCode: ExpressibleByIntegerLiteral {
    /// A code written as a number, e.g. `close(code: 4000)` or `case 1001:`.
    public init(integerLiteral value: UInt16) { self.init(rawValue: value) }
}
