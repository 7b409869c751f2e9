#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every failure WireKit reports, with a message a user can act on.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The URL is not a usable `ws://` or `wss://` URL; the string says why.
    case invalidURL(String)
    /// The handshake request cannot be sent as configured (bad header or subprotocol); says which.
    case invalidRequest(String)
    /// Name resolution, connecting or the byte stream failed (unknown host, refused,
    /// unreachable, connect timeout, reset); the transport's typed error says which.
    case transport(TransportError)
    /// One of WireKit's timers ran out (opening or closing handshake, keepalive, a ping's pong,
    /// a message's deadline).
    /// A TCP connect that takes too long is `.transport(.connectTimedOut)`.
    case timedOut(WebSocketTimeout)
    /// The TLS layer failed (untrusted or expired certificate, wrong host, pin mismatch,
    /// handshake, no TLS library); the typed error says which.
    case tls(TLSError)
    /// The server answered the upgrade request with a status other than 101 (and not a redirect).
    case handshakeRejected(status: Int, headers: HTTPHeaders, body: [UInt8])
    /// The server answered with a 3xx redirect. WireKit reports it and does not follow it.
    case redirected(status: Int, location: String?, headers: HTTPHeaders)
    /// The server's 101 answer (or its HTTP head) is not a valid WebSocket handshake.
    case invalidHandshakeResponse(String)
    /// Server role: the client's upgrade request is invalid; `status` is what was answered (400 or 426).
    case invalidUpgradeRequest(status: Int, reason: String)
    /// The peer broke RFC 6455 (close code 1002); the reason says how.
    case protocolViolation(WebSocketProtocolViolation)
    /// The peer sent invalid UTF-8 in a text message or close reason (close code 1007).
    case invalidUTF8(String)
    /// A frame or message exceeds the configured limit (close code 1009). Sizes in bytes.
    case messageTooBig(size: UInt64, limit: Int)
    /// Holding `size` bytes of an unfinished message would take the shared budget for unfinished
    /// messages (`WebSocketServerOptions.maxPartialMessageBytes`, `budget` bytes) past its
    /// limit; the message was refused (close code 1009).
    case partialMessageBudgetExceeded(size: Int, budget: Int)
    /// The transport ended without a close handshake; the string says how.
    case connectionClosed(String)
    /// The connection is closing or closed, so the operation cannot run.
    case closed
    /// The opening handshake has not finished yet, so messages cannot be sent.
    case notOpen
    /// The non-async `write` found `buffered` bytes waiting, and the message would take them
    /// beyond `limit` (`writeLimit`); nothing was queued. Wait for `bufferedAmount` to fall, or
    /// use the async `send`, which waits.
    case sendBufferFull(buffered: Int, limit: Int)

    /// The close code this error sends to the peer when it fails the connection.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .protocolViolation: .protocolError
        case .invalidUTF8: .invalidFramePayloadData
        case .messageTooBig, .partialMessageBudgetExceeded: .messageTooBig
        case .timedOut(.message): .policyViolation
        case .tls: .tlsHandshakeFailure
        default: .abnormalClosure
        }
    }

    /// What went wrong, in words. Text from the peer (an HTTP body, a `Location`, a header value)
    /// is escaped with `escapedForDisplay`, so the description is safe to
    /// print or log; the associated values keep it as received.
    public var description: String {
        switch self {
        case .invalidURL(let why): "Invalid WebSocket URL: \(why.escapedForDisplay)"
        case .invalidRequest(let why): "Invalid WebSocket request: \(why.escapedForDisplay)"
        case .transport(let error): "Connection failed: \(error)"
        case .timedOut(let what): "Timed out: \(what)"
        case .tls(let error): "TLS failed: \(error)"
        case .handshakeRejected(let status, _, let body):
            "The server rejected the WebSocket upgrade with HTTP \(status)"
                + (body.isEmpty ? "" : ": \(String(decoding: body.prefix(200), as: UTF8.self).escapedForDisplay)")
        case .redirected(let status, let location, _):
            "The server redirected the WebSocket upgrade (HTTP \(status)) to \(location?.escapedForDisplay ?? "an unspecified location"); redirects are not followed"
        case .invalidHandshakeResponse(let why): "Invalid WebSocket handshake response: \(why.escapedForDisplay)"
        case .invalidUpgradeRequest(let status, let why): "Invalid WebSocket upgrade request (answered \(status)): \(why.escapedForDisplay)"
        case .protocolViolation(let why): "The peer violated the WebSocket protocol: \(why)"
        case .invalidUTF8(let why): "The peer sent invalid UTF-8: \(why.escapedForDisplay)"
        case .messageTooBig(let size, let limit): "Message too big: \(size) bytes exceeds the limit of \(limit) bytes"
        case .partialMessageBudgetExceeded(let size, let budget):
            "Message refused: holding \(size) bytes of it would exceed the \(budget)-byte budget for unfinished messages"
        case .connectionClosed(let why): "Connection closed: \(why.escapedForDisplay)"
        case .closed: "The WebSocket connection is closing or closed"
        case .notOpen: "The WebSocket connection is not open yet"
        case .sendBufferFull(let buffered, let limit):
            "Write refused: \(buffered) bytes are already waiting to be sent and the write limit is \(limit) bytes"
        }
    }

    /// The same text as ``description``, for `LocalizedError`.
    public var errorDescription: String? { description }
}
