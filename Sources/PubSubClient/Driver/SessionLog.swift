import WireKit

/// What a client's session driver logs (subsystem `session`): connection attempts and their
/// outcome, handshake rejections, reconnect decisions with their delay and the close that caused
/// them, and the outbound queue's limit. Fed the session's events as the driver routes them; the
/// per-message events fall through one `switch` without building anything. The server's text
/// (a close reason, its socket id, a remote error) is escaped with `escapedForDisplay` as the
/// record is built; error descriptions escape it already.
struct SessionLog {
    let sink: LogSink
    /// `host:port` of the server.
    let server: String
    /// The socket id of the current connection, once its handshake completed.
    private var socketID: String?
    /// The last close, for the reconnect decision that follows it.
    private var lastClose: SessionEvent.Close?

    init(sink: LogSink, server: String) {
        self.sink = sink
        self.server = server
    }

    private func metadata(_ extra: [String: String]) -> [String: String] {
        var metadata = extra
        metadata["server"] = server
        if let socketID { metadata["socket"] = socketID.escapedForDisplay }
        return metadata
    }

    private func closeMetadata(_ close: SessionEvent.Close) -> [String: String] {
        var extra = ["code": String(close.code.rawValue)]
        let error = close.error?.description
        if !close.reason.isEmpty, close.reason != error { extra["reason"] = close.reason.escapedForDisplay }
        if let error { extra["error"] = error }
        return metadata(extra)
    }

    /// The delay (as `delay_ms`, milliseconds) and attempt of a reconnect decision, and the close that caused it.
    private func reconnectMetadata(_ retry: SessionEvent.ReconnectSchedule) -> [String: String] {
        var extra = lastClose.map { closeMetadata($0) } ?? metadata([:])
        extra["delay_ms"] = String(retry.delay.wholeMilliseconds)
        extra["attempt"] = String(retry.attempt)
        return extra
    }

    /// Logs `event` when it is a lifecycle event.
    mutating func record(_ event: SessionEvent) {
        switch event {
        case .connecting(let attempt):
            sink.log(.debug, .session, "connecting", metadata: metadata(["attempt": String(attempt.attempt)]))
        case .connected(let info):
            socketID = info.id
            sink.log(.info, .session, "connected", metadata: metadata(["authenticated": String(info.isAuthenticated)]))
        case .connectAbort(let close):
            lastClose = close
            sink.log(.warning, .session, "connection attempt failed", metadata: closeMetadata(close))
        case .disconnected(let close):
            lastClose = close
            sink.log(
                close.code == .normal && close.error == nil ? .info : .warning, .session, "disconnected",
                metadata: closeMetadata(close))
            socketID = nil
        case .reconnectScheduled(let retry):
            sink.log(.info, .session, "reconnecting", metadata: reconnectMetadata(retry))
        case .error(let error) where error.code == .handshakeRejected:
            sink.log(
                .warning, .session, "handshake rejected",
                metadata: metadata([
                    "code": error.closeCode.map { String($0.rawValue) } ?? "", "error": error.remote?.description ?? "",
                ]))
        case .error(PubSubError.Code.socketProtocol):
            break  // The close it reports was logged as `disconnected` or `connection attempt failed`.
        case .error(let error):
            sink.log(.warning, .session, "error", metadata: metadata(["error": error.description]))
        default:
            break
        }
    }

    /// A call could not be queued: the outbound queue is at its limit (`error` is
    /// `.outboundQueueFull`, which names the event and the limits).
    func outboundQueueFull(_ error: PubSubError) {
        guard error.code == .outboundQueueFull else { return }
        sink.log(
            .notice, .session, "outbound queue full",
            metadata: metadata([
                "event": (error.event ?? "").escapedForDisplay, "max_messages": error.maxQueuedMessages.map(String.init) ?? "",
                "max_bytes": error.maxQueuedBytes.map(String.init) ?? "",
            ]))
    }
}
