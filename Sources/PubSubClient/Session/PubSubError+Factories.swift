import PubSubProtocol

/// The errors this library raises, each with its message built in one place. Text from the
/// server is escaped in the message and kept as received in the context fields.
extension PubSubError {
    package static func remote(_ error: RemoteError) -> PubSubError {
        PubSubError(code: .remote, message: error.message.escapedForDisplay, remote: error)
    }

    package static func timeout(event: String) -> PubSubError {
        PubSubError(code: .timeout, message: "Event response for \(event.escapedForDisplay) event timed out", event: event)
    }

    package static func badConnection(event: String, kind: BadConnectionKind, code: UInt16, reason: String) -> PubSubError {
        PubSubError(
            code: .badConnection, message: "Event \(event.escapedForDisplay) was aborted due to a bad connection",
            event: event, closeCode: SocketClusterCloseCode(code), closeReason: reason, badConnectionKind: kind)
    }

    package static func codecMismatch(expected: PacketMessageKind, received: PacketMessageKind) -> PubSubError {
        PubSubError(
            code: .codecMismatch,
            message:
                "The server sent a \(received) frame before the handshake where the client's codec reads \(expected) frames: the server uses another codec",
            expectedMessageKind: expected, receivedMessageKind: received)
    }

    package static func outboundQueueFull(event: String, maxMessages: Int, maxBytes: Int) -> PubSubError {
        PubSubError(
            code: .outboundQueueFull,
            message:
                "Event \(event.escapedForDisplay) was not queued: the outbound queue is full (limits \(maxMessages) messages, \(maxBytes) bytes)",
            event: event, maxQueuedMessages: maxMessages, maxQueuedBytes: maxBytes)
    }

    package static func queuedTransmitExpired(event: String) -> PubSubError {
        PubSubError(
            code: .queuedTransmitExpired,
            message: "Event \(event.escapedForDisplay) was dropped: it could not be sent within its ack timeout", event: event)
    }

    package static func batchCancelled(event: String) -> PubSubError {
        PubSubError(code: .batchCancelled, message: "Event \(event.escapedForDisplay) was discarded by cancelBatch()", event: event)
    }

    package static func handshakeRejected(_ error: RemoteError, code: UInt16) -> PubSubError {
        PubSubError(
            code: .handshakeRejected, message: "Handshake rejected with code \(code): \(error)",
            closeCode: SocketClusterCloseCode(code), remote: error)
    }

    package static func socketProtocol(code: UInt16, reason: String) -> PubSubError {
        PubSubError(
            code: .socketProtocol, message: SocketClusterCloseCode(code).errorMessage(reason: reason.escapedForDisplay),
            closeCode: SocketClusterCloseCode(code), closeReason: reason)
    }

    package static func invalidResponse(event: String, detail: String) -> PubSubError {
        PubSubError(
            code: .invalidResponse, message: "Invalid response to \(event.escapedForDisplay): \(detail.escapedForDisplay)",
            event: event, detail: detail)
    }

    package static func malformedPacket(detail: String) -> PubSubError {
        PubSubError(code: .malformedPacket, message: "Malformed packet dropped: \(detail.escapedForDisplay)", detail: detail)
    }

    package static func alreadyResponded(_ request: ServerRequestID) -> PubSubError {
        PubSubError(code: .alreadyResponded, message: "The \(request) was already answered", request: request)
    }

    package static func requestExpired(_ request: ServerRequestID) -> PubSubError {
        PubSubError(
            code: .requestExpired, message: "The connection of \(request) has ended; it cannot be answered", request: request)
    }

    package static func coding(_ detail: String) -> PubSubError {
        PubSubError(code: .coding, message: detail.escapedForDisplay, detail: detail)
    }

    package static func tokenStore(_ detail: String) -> PubSubError {
        PubSubError(code: .tokenStore, message: "Token store failure: \(detail.escapedForDisplay)", detail: detail)
    }

    package static func invalidArgument(_ detail: String) -> PubSubError {
        PubSubError(code: .invalidArgument, message: detail.escapedForDisplay, detail: detail)
    }

    package static func cancelled(event: String) -> PubSubError {
        PubSubError(code: .cancelled, message: "Event \(event.escapedForDisplay) was cancelled before it completed", event: event)
    }

    package static func connectionFailed(code: UInt16, reason: String) -> PubSubError {
        PubSubError(
            code: .connectionFailed,
            message: "The connection closed with code \(code) before its handshake completed"
                + (reason.isEmpty ? "" : ": \(reason.escapedForDisplay)"),
            closeCode: SocketClusterCloseCode(code), closeReason: reason)
    }

    package static func transport(_ failure: TransportFailure) -> PubSubError {
        PubSubError(code: .transport, message: failure.message, transport: failure)
    }

    package static func channelClosed(channel: String) -> PubSubError {
        PubSubError(
            code: .channelClosed, message: "Channel \(channel.escapedForDisplay) was unsubscribed before its subscription completed",
            channel: channel)
    }
}
