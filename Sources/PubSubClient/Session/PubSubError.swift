import PubSubProtocol
import WireKit

/// Every failure the client reports: a ``code`` to react to, the JS client's error ``name``
/// (`TimeoutError`, `BadConnectionError`, ...) so logs read the same across platforms, a
/// ``message``, and the context the failure has (the event, the close, the server's error...).
///
/// Match on the code, in a `catch` or a `switch`:
///
/// ```swift
/// do {
///     let answer = try await client.invoke("sum", [1, 2])
/// } catch PubSubError.Code.timeout {
///     // no answer within ackTimeout
/// } catch let error as PubSubError where error.code == .remote {
///     print(error.remote?.name ?? "")
/// }
/// ```
///
/// New codes and context fields may be added in minor releases; match codes with `default:`.
public struct PubSubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that reacts to it.
    public var code: Code
    /// The rest, behind one reference (copied on write, as WireKit's errors keep their details):
    /// an error travels inside every call's `Result`, so its size is copied with each answer (as
    /// 16 stored fields it made a `Result` 330 bytes long).
    private var fields: IndirectValue<Fields>

    /// The JS error class name: the server's name for ``Code/remote`` and
    /// ``Code/handshakeRejected``, else fixed by the code (`TimeoutError`, `BadConnectionError`...).
    public var name: String {
        get { fields.value.name }
        set { fields.value.name = newValue }
    }
    /// Human-readable explanation. Text from the server (a remote error's name and message, a
    /// close reason, a channel or event name) is escaped with `escapedForDisplay`, so the message
    /// is safe to print or log; the context fields keep it as received. A ``Code/transport``
    /// failure's message is the driver's (WireKit's description, which escapes the peer's text
    /// itself).
    public var message: String {
        get { fields.value.message }
        set { fields.value.message = newValue }
    }
    /// The event (or procedure) of the call that failed: ``Code/timeout``, ``Code/badConnection``,
    /// ``Code/outboundQueueFull``, ``Code/queuedTransmitExpired``, ``Code/batchCancelled``,
    /// ``Code/invalidResponse``, ``Code/cancelled``; `connect` for a cancelled connect.
    public var event: String? {
        get { fields.value.event }
        set { fields.value.event = newValue }
    }
    /// The close code of the connection that ended: ``Code/badConnection``,
    /// ``Code/handshakeRejected``, ``Code/socketProtocol``, ``Code/connectionFailed``.
    public var closeCode: SocketClusterCloseCode? {
        get { fields.value.closeCode }
        set { fields.value.closeCode = newValue }
    }
    /// The close reason (or the standard text for the code when the close frame had none) of
    /// ``Code/badConnection``, ``Code/socketProtocol`` and ``Code/connectionFailed``, as received.
    public var closeReason: String? {
        get { fields.value.closeReason }
        set { fields.value.closeReason = newValue }
    }
    /// For ``Code/badConnection``: whether the connection ended before or after its handshake.
    public var badConnectionKind: BadConnectionKind? {
        get { fields.value.badConnectionKind }
        set { fields.value.badConnectionKind = newValue }
    }
    /// The server's error, as received: ``Code/remote`` and ``Code/handshakeRejected``.
    public var remote: RemoteError? {
        get { fields.value.remote }
        set { fields.value.remote = newValue }
    }
    /// Why the WebSocket itself failed: ``Code/transport``. With the WireKit driver, its
    /// `webSocketError` is WireKit's full typed reason.
    public var transport: TransportFailure? {
        get { fields.value.transport }
        set { fields.value.transport = newValue }
    }
    /// The server request that could not be answered: ``Code/alreadyResponded``,
    /// ``Code/requestExpired``.
    public var request: ServerRequestID? {
        get { fields.value.request }
        set { fields.value.request = newValue }
    }
    /// The channel of ``Code/channelClosed``, as received.
    public var channel: String? {
        get { fields.value.channel }
        set { fields.value.channel = newValue }
    }
    /// What exactly was wrong, as received or reported by the failing part:
    /// ``Code/invalidResponse``, ``Code/malformedPacket``, ``Code/coding``, ``Code/tokenStore``,
    /// ``Code/invalidArgument``.
    public var detail: String? {
        get { fields.value.detail }
        set { fields.value.detail = newValue }
    }
    /// For ``Code/codecMismatch``: the frame type the session's codec reads.
    public var expectedMessageKind: PacketMessageKind? {
        get { fields.value.expectedMessageKind }
        set { fields.value.expectedMessageKind = newValue }
    }
    /// For ``Code/codecMismatch``: the frame type the server sent.
    public var receivedMessageKind: PacketMessageKind? {
        get { fields.value.receivedMessageKind }
        set { fields.value.receivedMessageKind = newValue }
    }
    /// For ``Code/outboundQueueFull``: the queue's count limit
    /// (`SessionConfiguration.maxQueuedMessages`).
    public var maxQueuedMessages: Int? {
        get { fields.value.maxQueuedMessages }
        set { fields.value.maxQueuedMessages = newValue }
    }
    /// For ``Code/outboundQueueFull``: the queue's byte limit (`SessionConfiguration.maxQueuedBytes`).
    public var maxQueuedBytes: Int? {
        get { fields.value.maxQueuedBytes }
        set { fields.value.maxQueuedBytes = newValue }
    }

    /// A failure with `code` and `message` (used as given: escape peer text yourself) and the
    /// context fields that apply. `name` defaults to `remote?.name` for ``Code/remote`` and
    /// ``Code/handshakeRejected``, else to the JS name of `code` (`Error` for a code this library
    /// does not define). For mocks and custom drivers; new fields come as trailing defaulted
    /// parameters.
    public init(
        code: Code, message: String, name: String? = nil, event: String? = nil,
        closeCode: SocketClusterCloseCode? = nil, closeReason: String? = nil,
        badConnectionKind: BadConnectionKind? = nil, remote: RemoteError? = nil, transport: TransportFailure? = nil,
        request: ServerRequestID? = nil, channel: String? = nil, detail: String? = nil,
        expectedMessageKind: PacketMessageKind? = nil, receivedMessageKind: PacketMessageKind? = nil,
        maxQueuedMessages: Int? = nil, maxQueuedBytes: Int? = nil
    ) {
        self.code = code
        fields = IndirectValue(
            Fields(
                name: name ?? code.defaultName(remote: remote), message: message, event: event, closeCode: closeCode,
                closeReason: closeReason, badConnectionKind: badConnectionKind, remote: remote, transport: transport,
                request: request, channel: channel, detail: detail, expectedMessageKind: expectedMessageKind,
                receivedMessageKind: receivedMessageKind, maxQueuedMessages: maxQueuedMessages, maxQueuedBytes: maxQueuedBytes))
    }

    /// The error's name and message, as `name: message` (both escaped, see ``message``).
    public var description: String { "\(name.escapedForDisplay): \(message)" }

    private struct Fields: Sendable, Equatable {
        var name: String
        var message: String
        var event: String?
        var closeCode: SocketClusterCloseCode?
        var closeReason: String?
        var badConnectionKind: BadConnectionKind?
        var remote: RemoteError?
        var transport: TransportFailure?
        var request: ServerRequestID?
        var channel: String?
        var detail: String?
        var expectedMessageKind: PacketMessageKind?
        var receivedMessageKind: PacketMessageKind?
        var maxQueuedMessages: Int?
        var maxQueuedBytes: Int?
    }
}
