/// Whether a connection ended while it was still connecting or after it had opened (Protocol.md §11).
public enum BadConnectionKind: String, Sendable, Hashable {
    /// Closed before the handshake completed.
    case connectAbort
    /// Closed after the handshake completed.
    case disconnect
}

/// Every failure the client reports. `name` and `message` follow the JS client's error names
/// (`TimeoutError`, `BadConnectionError`, ...) so logs read the same across platforms.
public enum PubSubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered the call with an error (name, message and extra fields preserved).
    case remote(RemoteError)
    /// No answer within the call's ack timeout, counted from when the call was made.
    case timeout(event: String)
    /// The connection ended before the call was answered (or, if still queued, before it
    /// could be sent and no reconnect was going to follow).
    case badConnection(event: String, kind: BadConnectionKind, code: UInt16, reason: String)
    /// Before the handshake, the server sent a frame of the other type than the session's codec
    /// reads (`SessionConfiguration.codec`): binary to a JSON client, text other than a ping to a
    /// min-bin one. The server uses another codec; the client closes with 1003.
    case codecMismatch(expected: PacketMessageKind, received: PacketMessageKind)
    /// The outbound queue (used while not connected) is at its count or byte limit.
    case outboundQueueFull(event: String, maxMessages: Int, maxBytes: Int)
    /// A transmit waited in the outbound queue longer than its ack timeout and was dropped.
    case queuedTransmitExpired(event: String)
    /// The call was in a batch discarded by `cancelBatch()`.
    case batchCancelled(event: String)
    /// The server refused the handshake; the connection is closed with `code`.
    case handshakeRejected(RemoteError, code: UInt16)
    /// The connection closed abnormally (every code except 1000 and 1001).
    case socketProtocol(code: UInt16, reason: String)
    /// The server's answer does not have the shape the protocol requires.
    case invalidResponse(event: String, detail: String)
    /// An inbound packet was malformed and dropped; the connection lives on.
    case malformedPacket(detail: String)
    /// A server request was already answered; a request is answered exactly once.
    case alreadyResponded(ServerRequestID)
    /// The connection a server request arrived on has ended; it can no longer be answered.
    case requestExpired(ServerRequestID)
    /// A value could not be encoded to, or decoded from, JSON.
    case coding(String)
    /// The token store failed to load, save or remove the auth token.
    case tokenStore(String)
    /// An argument the caller passed is invalid (e.g. a malformed URL).
    case invalidArgument(String)
    /// The call was cancelled by the caller before it completed (a late answer is ignored).
    case cancelled(event: String)
    /// `connect()` failed: the attempt closed with `code` before its handshake completed.
    case connectionFailed(code: UInt16, reason: String)
    /// `connect()` failed because the WebSocket itself failed: refused, unknown host, HTTP
    /// status of a rejected upgrade, TLS, timeouts. Switch on `kind`; with the WireKit driver,
    /// `webSocketError` has WireKit's full typed reason.
    case transport(TransportFailure)
    /// The channel was unsubscribed (or kicked out) before its subscription completed.
    case channelClosed(channel: String)

    /// The JS error class name for this failure.
    public var name: String {
        switch self {
        case .remote(let error): return error.name
        case .codecMismatch: return "CodecMismatchError"
        case .timeout: return "TimeoutError"
        case .badConnection: return "BadConnectionError"
        case .outboundQueueFull: return "OutboundQueueFullError"
        case .queuedTransmitExpired: return "TimeoutError"
        case .batchCancelled: return "BatchCancelledError"
        case .handshakeRejected(let error, _): return error.name
        case .socketProtocol: return "SocketProtocolError"
        case .invalidResponse: return "InvalidResponseError"
        case .malformedPacket: return "InvalidMessageError"
        case .alreadyResponded: return "InvalidActionError"
        case .requestExpired: return "BadConnectionError"
        case .coding: return "CodingError"
        case .tokenStore: return "TokenStoreError"
        case .invalidArgument: return "InvalidArgumentsError"
        case .channelClosed: return "ChannelClosedError"
        case .connectionFailed: return "BadConnectionError"
        case .transport: return "TransportError"
        case .cancelled: return "CancellationError"
        }
    }

    /// Human-readable explanation. Text from the server (a remote error's name and message, a
    /// close reason, a channel or event name) is escaped with `escapedForDisplay`, so the message
    /// is safe to print or log; the associated values keep it as received. A `transport`
    /// failure's message is WireKit's description, which escapes the peer's text itself.
    public var message: String {
        switch self {
        case .remote(let error): return error.message.escapedForDisplay
        case .timeout(let event): return "Event response for \(event.escapedForDisplay) event timed out"
        case .badConnection(let event, _, _, _): return "Event \(event.escapedForDisplay) was aborted due to a bad connection"
        case .outboundQueueFull(let event, let count, let bytes):
            return "Event \(event.escapedForDisplay) was not queued: the outbound queue is full (limits \(count) messages, \(bytes) bytes)"
        case .queuedTransmitExpired(let event):
            return "Event \(event.escapedForDisplay) was dropped: it could not be sent within its ack timeout"
        case .batchCancelled(let event): return "Event \(event.escapedForDisplay) was discarded by cancelBatch()"
        case .handshakeRejected(let error, let code): return "Handshake rejected with code \(code): \(error)"
        case .socketProtocol(let code, let reason): return SocketClusterCloseCode(code).errorMessage(reason: reason.escapedForDisplay)
        case .invalidResponse(let event, let detail):
            return "Invalid response to \(event.escapedForDisplay): \(detail.escapedForDisplay)"
        case .codecMismatch(let expected, let received):
            return "The server sent a \(received) frame before the handshake where the client's codec reads \(expected) frames: the server uses another codec"
        case .malformedPacket(let detail): return "Malformed packet dropped: \(detail.escapedForDisplay)"
        case .alreadyResponded(let id): return "The \(id) was already answered"
        case .requestExpired(let id): return "The connection of \(id) has ended; it cannot be answered"
        case .coding(let detail): return detail.escapedForDisplay
        case .tokenStore(let detail): return "Token store failure: \(detail.escapedForDisplay)"
        case .invalidArgument(let detail): return detail.escapedForDisplay
        case .cancelled(let event): return "Event \(event.escapedForDisplay) was cancelled before it completed"
        case .connectionFailed(let code, let reason):
            return "The connection closed with code \(code) before its handshake completed"
                + (reason.isEmpty ? "" : ": \(reason.escapedForDisplay)")
        case .transport(let failure): return failure.message
        case .channelClosed(let channel): return "Channel \(channel.escapedForDisplay) was unsubscribed before its subscription completed"
        }
    }

    /// The error's name and message, as `name: message` (both escaped, see ``message``).
    public var description: String { "\(name.escapedForDisplay): \(message)" }
}
