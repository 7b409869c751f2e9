#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every failure WireKit reports, with a message a user can act on.
///
/// ``code`` says what kind of failure it is; the optional fields carry the details that kind has
/// (the HTTP status and headers of a refused upgrade, the transport or TLS error, the timer that
/// ran out, the protocol violation). New codes and fields may be added in minor releases; match
/// codes with `default:`, or catch one code with `catch WebSocketError.Code.closed`:
///
/// ```swift
/// do {
///     try await socket.send(text: "hello")
/// } catch WebSocketError.Code.closed {
///     // reconnect
/// } catch {
///     switch error.code {
///     case .sendBufferFull: print("slow down")
///     default: print(error)
///     }
/// }
/// ```
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What kind of failure a ``WebSocketError`` is. New codes may be added in minor releases;
    /// match with `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"handshakeRejected"`.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The URL is not a usable `ws://` or `wss://` URL; ``WebSocketError/message`` says why.
        public static let invalidURL = Code(rawValue: "invalidURL")
        /// The handshake request cannot be sent as configured (bad header or subprotocol);
        /// ``WebSocketError/message`` says which.
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// Name resolution, connecting or the byte stream failed (unknown host, refused,
        /// unreachable, connect timeout, reset); ``WebSocketError/transportError`` says which.
        public static let transport = Code(rawValue: "transport")
        /// One of WireKit's timers ran out (opening or closing handshake, keepalive, a ping's
        /// pong, a message's deadline); ``WebSocketError/timeout`` says which. A TCP connect that
        /// takes too long is ``transport`` with ``TransportError/Code/connectTimedOut``.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The TLS layer failed (untrusted or expired certificate, wrong host, pin mismatch,
        /// handshake, no TLS library); ``WebSocketError/tlsError`` says which.
        public static let tls = Code(rawValue: "tls")
        /// The server answered the upgrade request with a status other than 101 (and not a
        /// redirect): ``WebSocketError/httpStatus``, ``WebSocketError/headers`` and
        /// ``WebSocketError/body`` are what it sent.
        public static let handshakeRejected = Code(rawValue: "handshakeRejected")
        /// The server answered with a 3xx redirect (``WebSocketError/httpStatus``,
        /// ``WebSocketError/location``). WireKit reports it and does not follow it.
        public static let redirected = Code(rawValue: "redirected")
        /// The server's 101 answer (or its HTTP head) is not a valid WebSocket handshake.
        public static let invalidHandshakeResponse = Code(rawValue: "invalidHandshakeResponse")
        /// Server role: the client's upgrade request is invalid; ``WebSocketError/httpStatus`` is
        /// what was answered (400 or 426).
        public static let invalidUpgradeRequest = Code(rawValue: "invalidUpgradeRequest")
        /// The peer broke RFC 6455 (close code 1002); ``WebSocketError/violation`` says how.
        public static let protocolViolation = Code(rawValue: "protocolViolation")
        /// The peer sent invalid UTF-8 in a text message or close reason (close code 1007).
        public static let invalidUTF8 = Code(rawValue: "invalidUTF8")
        /// A frame or message (``WebSocketError/size`` bytes) exceeds the configured limit
        /// (``WebSocketError/limit`` bytes; close code 1009).
        public static let messageTooBig = Code(rawValue: "messageTooBig")
        /// Holding ``WebSocketError/size`` bytes of an unfinished message would take the shared
        /// budget for unfinished messages (`WebSocketServerOptions.maxPartialMessageBytes`,
        /// ``WebSocketError/limit`` bytes) past its limit; the message was refused (close code 1009).
        public static let partialMessageBudgetExceeded = Code(rawValue: "partialMessageBudgetExceeded")
        /// The transport ended without a close handshake; ``WebSocketError/message`` says how.
        public static let connectionClosed = Code(rawValue: "connectionClosed")
        /// The connection is closing or closed, so the operation cannot run.
        public static let closed = Code(rawValue: "closed")
        /// The opening handshake has not finished yet, so messages cannot be sent.
        public static let notOpen = Code(rawValue: "notOpen")
        /// The non-async `write` found ``WebSocketError/bufferedBytes`` bytes waiting, and the
        /// message would take them beyond ``WebSocketError/limit`` (`writeLimit`); nothing was
        /// queued. Wait for `bufferedAmount` to fall, or use the async `send`, which waits.
        public static let sendBufferFull = Code(rawValue: "sendBufferFull")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The failure in words. Text from the peer (a reason, a header value) is kept as received:
    /// print ``description``, which escapes it.
    public var message: String
    /// The HTTP status of a refused or redirected upgrade (``Code/handshakeRejected``,
    /// ``Code/redirected``), or the status answered to an invalid one (``Code/invalidUpgradeRequest``).
    public var httpStatus: Int? {
        get { details?.value.httpStatus }
        set { updateDetails { $0.httpStatus = newValue } }
    }
    /// The response headers of a refused or redirected upgrade, as received.
    public var headers: HTTPHeaders? {
        get { details?.value.headers }
        set { updateDetails { $0.headers = newValue } }
    }
    /// The response body of a refused upgrade, as received (at most the bytes that arrived with
    /// the head).
    public var body: [UInt8]? {
        get { details?.value.body }
        set { updateDetails { $0.body = newValue } }
    }
    /// The `Location` of a redirect, as received (nil if the server sent none).
    public var location: String? {
        get { details?.value.location }
        set { updateDetails { $0.location = newValue } }
    }
    /// For ``Code/transport``: the transport's failure.
    public var transportError: TransportError? {
        get { details?.value.transportError }
        set { updateDetails { $0.transportError = newValue } }
    }
    /// For ``Code/tls``: the TLS failure.
    public var tlsError: TLSError? {
        get { details?.value.tlsError }
        set { updateDetails { $0.tlsError = newValue } }
    }
    /// For ``Code/timedOut``: which timer ran out, and its limit.
    public var timeout: WebSocketTimeout? {
        get { details?.value.timeout }
        set { updateDetails { $0.timeout = newValue } }
    }
    /// For ``Code/protocolViolation``: how the peer broke RFC 6455 or RFC 7692.
    public var violation: WebSocketProtocolViolation? {
        get { details?.value.violation }
        set { updateDetails { $0.violation = newValue } }
    }
    /// For ``Code/messageTooBig`` and ``Code/partialMessageBudgetExceeded``: the size that was
    /// refused, in bytes.
    public var size: UInt64? {
        get { details?.value.size }
        set { updateDetails { $0.size = newValue } }
    }
    /// The limit that was exceeded, in bytes: the message limit (``Code/messageTooBig``), the
    /// budget for unfinished messages (``Code/partialMessageBudgetExceeded``) or `writeLimit`
    /// (``Code/sendBufferFull``).
    public var limit: Int? {
        get { details?.value.limit }
        set { updateDetails { $0.limit = newValue } }
    }
    /// For ``Code/sendBufferFull``: the bytes already waiting to be sent.
    public var bufferedBytes: Int? {
        get { details?.value.bufferedBytes }
        set { updateDetails { $0.bufferedBytes = newValue } }
    }

    /// An error of `code`; mocks and custom transports build them with this.
    public init(
        code: Code, message: String, httpStatus: Int? = nil, headers: HTTPHeaders? = nil, body: [UInt8]? = nil,
        location: String? = nil, transportError: TransportError? = nil, tlsError: TLSError? = nil,
        timeout: WebSocketTimeout? = nil, violation: WebSocketProtocolViolation? = nil, size: UInt64? = nil,
        limit: Int? = nil, bufferedBytes: Int? = nil
    ) {
        self.code = code
        self.message = message
        let details = Details(
            httpStatus: httpStatus, headers: headers, body: body, location: location, transportError: transportError,
            tlsError: tlsError, timeout: timeout, violation: violation, size: size, limit: limit, bufferedBytes: bufferedBytes)
        self.details = IndirectValue?(boxing: details, unlessEqualTo: Details())
    }

    /// The optional fields, kept behind one reference (`nil` when none is set): an error is
    /// stored in every close record and returned by every throwing call, and most errors have
    /// no details or one.
    private struct Details: Sendable, Hashable {
        var httpStatus: Int?
        var headers: HTTPHeaders?
        var body: [UInt8]?
        var location: String?
        var transportError: TransportError?
        var tlsError: TLSError?
        var timeout: WebSocketTimeout?
        var violation: WebSocketProtocolViolation?
        var size: UInt64?
        var limit: Int?
        var bufferedBytes: Int?
    }

    private var details: IndirectValue<Details>?

    private mutating func updateDetails(_ body: (inout Details) -> Void) {
        details.updateBoxed(empty: Details(), body)
    }

    /// The close code this error sends to the peer when it fails the connection.
    public var closeCode: WebSocketCloseCode {
        switch code {
        case .protocolViolation: .protocolError
        case .invalidUTF8: .invalidFramePayloadData
        case .messageTooBig, .partialMessageBudgetExceeded: .messageTooBig
        case .timedOut where timeout?.kind == .message: .policyViolation
        case .tls: .tlsHandshakeFailure
        default: .abnormalClosure
        }
    }

    /// What went wrong, in words. Text from the peer (an HTTP body, a `Location`, a header value)
    /// is escaped with `escapedForDisplay`, so the description is safe to
    /// print or log; the fields keep it as received.
    public var description: String {
        switch code {
        case .invalidURL: "Invalid WebSocket URL: \(message.escapedForDisplay)"
        case .invalidRequest: "Invalid WebSocket request: \(message.escapedForDisplay)"
        case .transport: "Connection failed: \(transportError.map { "\($0)" } ?? message.escapedForDisplay)"
        case .timedOut: "Timed out: \(timeout.map { "\($0)" } ?? message.escapedForDisplay)"
        case .tls: "TLS failed: \(tlsError.map { "\($0)" } ?? message.escapedForDisplay)"
        case .handshakeRejected:
            "The server rejected the WebSocket upgrade with HTTP \(httpStatus ?? 0)"
                + ((body ?? []).isEmpty ? "" : ": \(String(decoding: (body ?? []).prefix(200), as: UTF8.self).escapedForDisplay)")
        case .redirected:
            "The server redirected the WebSocket upgrade (HTTP \(httpStatus ?? 0)) to \(location?.escapedForDisplay ?? "an unspecified location"); redirects are not followed"
        case .invalidHandshakeResponse: "Invalid WebSocket handshake response: \(message.escapedForDisplay)"
        case .invalidUpgradeRequest:
            "Invalid WebSocket upgrade request (answered \(httpStatus ?? 400)): \(message.escapedForDisplay)"
        case .protocolViolation: "The peer violated the WebSocket protocol: \(violation.map { "\($0)" } ?? message.escapedForDisplay)"
        case .invalidUTF8: "The peer sent invalid UTF-8: \(message.escapedForDisplay)"
        case .messageTooBig: "Message too big: \(size ?? 0) bytes exceeds the limit of \(limit ?? 0) bytes"
        case .partialMessageBudgetExceeded:
            "Message refused: holding \(size ?? 0) bytes of it would exceed the \(limit ?? 0)-byte budget for unfinished messages"
        case .connectionClosed: "Connection closed: \(message.escapedForDisplay)"
        case .closed: "The WebSocket connection is closing or closed"
        case .notOpen: "The WebSocket connection is not open yet"
        case .sendBufferFull:
            "Write refused: \(bufferedBytes ?? 0) bytes are already waiting to be sent and the write limit is \(limit ?? 0) bytes"
        default: message.escapedForDisplay
        }
    }

    /// The same text as ``description``, for `LocalizedError`.
    public var errorDescription: String? { description }

    /// Whether `value` has code `pattern`, for `switch` and typed `catch` (`throws(WebSocketError)`).
    public static func ~= (pattern: Code, value: WebSocketError) -> Bool {
        value.code == pattern
    }
}

extension WebSocketError {
    /// The URL is not usable.
    package static func invalidURL(_ why: String) -> Self { Self(code: .invalidURL, message: why) }
    /// The request cannot be sent as configured.
    package static func invalidRequest(_ why: String) -> Self { Self(code: .invalidRequest, message: why) }
    /// The transport failed.
    package static func transport(_ error: TransportError) -> Self {
        Self(code: .transport, message: error.message, transportError: error)
    }
    /// A timer ran out.
    package static func timedOut(_ timeout: WebSocketTimeout) -> Self {
        Self(code: .timedOut, message: timeout.description, timeout: timeout)
    }
    /// TLS failed.
    package static func tls(_ error: TLSError) -> Self { Self(code: .tls, message: error.message, tlsError: error) }
    /// The server refused the upgrade with `status`.
    package static func handshakeRejected(status: Int, headers: HTTPHeaders, body: [UInt8]) -> Self {
        Self(
            code: .handshakeRejected, message: "The server rejected the WebSocket upgrade with HTTP \(status)", httpStatus: status,
            headers: headers, body: body)
    }
    /// The server redirected the upgrade.
    package static func redirected(status: Int, location: String?, headers: HTTPHeaders) -> Self {
        Self(
            code: .redirected, message: "The server redirected the WebSocket upgrade (HTTP \(status))", httpStatus: status,
            headers: headers, location: location)
    }
    /// The server's answer is not a valid handshake.
    package static func invalidHandshakeResponse(_ why: String) -> Self { Self(code: .invalidHandshakeResponse, message: why) }
    /// Server role: the client's request is invalid; `status` was answered.
    package static func invalidUpgradeRequest(status: Int, reason: String) -> Self {
        Self(code: .invalidUpgradeRequest, message: reason, httpStatus: status)
    }
    /// The peer broke the protocol.
    package static func protocolViolation(_ violation: WebSocketProtocolViolation) -> Self {
        Self(code: .protocolViolation, message: violation.description, violation: violation)
    }
    /// The peer sent invalid UTF-8.
    package static func invalidUTF8(_ why: String) -> Self { Self(code: .invalidUTF8, message: why) }
    /// A frame or message is over the limit.
    package static func messageTooBig(size: UInt64, limit: Int) -> Self {
        Self(code: .messageTooBig, message: "message too big", size: size, limit: limit)
    }
    /// The budget for unfinished messages is exhausted.
    package static func partialMessageBudgetExceeded(size: Int, budget: Int) -> Self {
        Self(
            code: .partialMessageBudgetExceeded, message: "budget for unfinished messages exceeded", size: UInt64(max(0, size)),
            limit: budget)
    }
    /// The transport ended without a close handshake.
    package static func connectionClosed(_ why: String) -> Self { Self(code: .connectionClosed, message: why) }
    /// The connection is closing or closed.
    package static var closed: Self { Self(code: .closed, message: "The WebSocket connection is closing or closed") }
    /// The opening handshake has not finished.
    package static var notOpen: Self { Self(code: .notOpen, message: "The WebSocket connection is not open yet") }
    /// The write would exceed the write limit.
    package static func sendBufferFull(buffered: Int, limit: Int) -> Self {
        Self(code: .sendBufferFull, message: "write limit reached", limit: limit, bufferedBytes: buffered)
    }
}

extension WebSocketError.Code {
    /// Whether `value` is a ``WebSocketError`` with code `pattern`, so that
    /// `catch WebSocketError.Code.closed` works where the error is untyped.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? WebSocketError)?.code == pattern
    }
}
