import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WebSocket connection: a client you create with a `ws://` URL, or a connection accepted by
/// `WebSocketServer`. Both have the same API, in two styles:
///
/// - async/await: `connect()`, `send(text:)`/`send(data:)` (they wait while more than
///   `sendHighWaterMark` bytes are buffered), `messages`, `ping()`, `close(code:reason:)`.
/// - callbacks: set `onOpen`, `onText`, `onBinary`, `onClose`, `onError`, then `open()`,
///   `write(text:)`/`write(data:)`, `disconnect()`.
///
/// The socket's work and its callbacks run serialized on one queue: a private serial queue that
/// targets the `callbackQueue` you pass (so callbacks run on that queue, inline, in order, with
/// no extra hop), or by default one of a few serial queues WireKit shares between its sockets.
/// On Linux an event loop reads those sockets with one thread wake-up per readable socket: one
/// loop per shared queue, and one per callback queue other than the main queue and the global
/// queues (pass a serial queue: the loop waits for it, so a concurrent one would make its
/// sockets wait for each other).
/// Don't block in a callback: it holds up the socket's I/O, and by default other sockets' too.
///
/// Each received message goes to `onText`/`onBinary` when that callback is set at the time it
/// arrives, and into `messages` otherwise. While `messages` holds more than
/// `receiveHighWaterMark` unread bytes (1 MiB), the socket is not read, so TCP pushes back on
/// the peer; reading resumes at `receiveLowWaterMark` (256 KiB). Callback users pause with
/// `pauseReading()`. Releasing the last reference to an open client
/// closes it with 1001 (going away); callbacks that capture the socket keep it alive until it
/// closes.
///
/// Thread-safe: every method and property may be used from any thread.
public final class WebSocket: Sendable {
    /// Client role: the URL connected to.
    public let url: WebSocketURL?
    let connection: WebSocketConnection

    /// A client for `url` (`ws://host:port/path?query`). Nothing happens until `connect()` or
    /// `open()`. Throws `.invalidURL` or `.invalidRequest` (bad header, origin or subprotocol).
    /// - Parameters:
    ///   - url: the URL as text.
    ///   - options: headers, limits, timeouts and the transport (TLS for `wss://` by default).
    ///   - callbackQueue: the queue callbacks run on; the socket's own serial queue
    ///     targets it (default: one of WireKit's shared serial queues).
    public convenience init(url: String, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        try self.init(url: try WebSocketURL(url), options: options, callbackQueue: callbackQueue)
    }

    /// A client for `url`; see `init(url:options:callbackQueue:)`.
    public convenience init(url: URL, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        try self.init(url: try WebSocketURL(url), options: options, callbackQueue: callbackQueue)
    }

    /// A client for a parsed URL; see `init(url:options:callbackQueue:)`.
    public init(url: WebSocketURL, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        self.url = url
        connection = try WebSocketConnection(client: url, options: options, callbackQueue: callbackQueue)
    }

    /// Server role: wraps an accepted connection.
    init(accepted connection: WebSocketConnection) {
        self.url = nil
        self.connection = connection
    }

    deinit {
        connection.ownerReleased()
    }

    /// Client or server end.
    public var role: WebSocketRole { connection.role }

    /// The messages received while no matching callback is set; finishes when the connection
    /// closes. One consumer.
    public var messages: AsyncStream<WebSocketMessage> { connection.messages }

    /// An executor that runs tasks on this socket's own queue, where it is read.
    ///
    /// A task that prefers it — `withTaskExecutorPreference(socket.executor) { ... }` or
    /// `Task(executorPreference: socket.executor) { ... }` — resumes from `messages` on the thread
    /// that read the message, in the same turn, and its `send` queues the message at once, to leave
    /// with that turn's write: no hand-off to Swift concurrency's global executor and back per
    /// message. Use it for request/response loops and consumers that talk mostly to this socket.
    ///
    /// The task's code then runs on the socket's queue, which by default is shared with other
    /// sockets of the process (one queue per core): while it runs, those sockets are not read.
    /// Keep such tasks short between suspensions. Code isolated to an actor (the main actor, for
    /// example) still runs on that actor.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    public var executor: any TaskExecutor { connection.executor }

    // MARK: Callbacks

    /// Called when the opening handshake succeeded.
    public var onOpen: (@Sendable (WebSocketHandshakeInfo) -> Void)? {
        get { connection.withCallbacks { $0.onOpen } }
        set { connection.withCallbacks { $0.onOpen = newValue } }
    }

    /// Called with each text message (instead of yielding it to `messages`).
    public var onText: (@Sendable (String) -> Void)? {
        get { connection.withCallbacks { $0.onText } }
        set { connection.withCallbacks { $0.onText = newValue } }
    }

    /// Called with each binary message (instead of yielding it to `messages`).
    public var onBinary: (@Sendable (Data) -> Void)? {
        get { connection.withCallbacks { $0.onBinary } }
        set { connection.withCallbacks { $0.onBinary = newValue } }
    }

    /// Called with each ping's payload; WireKit answers by itself (one pong, with the latest
    /// payload, for pings that arrive while an earlier pong is still waiting to be written).
    public var onPing: (@Sendable (Data) -> Void)? {
        get { connection.withCallbacks { $0.onPing } }
        set { connection.withCallbacks { $0.onPing = newValue } }
    }

    /// Called with each pong's payload.
    public var onPong: (@Sendable (Data) -> Void)? {
        get { connection.withCallbacks { $0.onPong } }
        set { connection.withCallbacks { $0.onPong = newValue } }
    }

    /// Called once when the connection is over, with the code, reason and whether it was clean.
    public var onClose: (@Sendable (WebSocketCloseInfo) -> Void)? {
        get { connection.withCallbacks { $0.onClose } }
        set { connection.withCallbacks { $0.onClose = newValue } }
    }

    /// Called once, before `onClose`, when the connection failed (could not connect, handshake
    /// rejected, protocol violation, timeout, ...).
    public var onError: (@Sendable (WebSocketError) -> Void)? {
        get { connection.withCallbacks { $0.onError } }
        set { connection.withCallbacks { $0.onError = newValue } }
    }

    // MARK: Observable state

    /// Bytes accepted by `send`/`write` and not yet handed to the kernel.
    public var bufferedAmount: Int { connection.bufferedAmount }

    /// What the opening handshake settled (subprotocol, the peer's headers), once open.
    public var handshakeInfo: WebSocketHandshakeInfo? { connection.handshakeInfo }

    /// How the connection ended, once it has.
    public var closeInfo: WebSocketCloseInfo? { connection.closeInfo }

    /// Waits until the connection is over and returns how it ended.
    public var closed: WebSocketCloseInfo {
        get async { await connection.closed }
    }

    // MARK: async/await

    /// Connects and completes the opening handshake. Throws the reason it failed (connection
    /// refused, host not found, timeout, handshake rejected with its status, ...).
    public func connect() async throws(WebSocketError) {
        try await connection.connect()
    }

    /// Sends a text message: returns once it is queued, and waits while more than
    /// `sendHighWaterMark` bytes are buffered. Throws `.notOpen` before the handshake and
    /// `.closed` once closing (as the connection stood at its last read or write: a message
    /// queued as it closes is dropped with the connection, as one in flight would be).
    public func send(text: String) async throws(WebSocketError) {
        try await connection.send(size: text.utf8.count) { machine throws(WebSocketError) in try machine.sendText(text) }
    }

    /// Sends a binary message. Returns and waits as `send(text:)` does.
    public func send(data: Data) async throws(WebSocketError) {
        try await connection.send(size: data.count) { machine throws(WebSocketError) in try machine.sendBinary(data) }
    }

    /// Sends a binary message from bytes. Returns and waits as `send(text:)` does.
    public func send(bytes: [UInt8]) async throws(WebSocketError) {
        try await connection.send(size: bytes.count) { machine throws(WebSocketError) in try machine.sendBinary(bytes) }
    }

    /// Sends a ping and waits for its pong. Throws `.timedOut` when none arrives within
    /// `timeout` (default `pingTimeout`), `.closed` if the connection ends first.
    public func ping(timeout: Duration? = nil) async throws(WebSocketError) {
        try await connection.ping(timeout: timeout)
    }

    /// Starts the close handshake and waits until the connection is over (bounded by
    /// `closeTimeout`). Returns how it ended. Before the handshake finished, it abandons the
    /// connection.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async -> WebSocketCloseInfo {
        await connection.close(code: code, reason: reason)
    }

    // MARK: Callback style

    /// Starts connecting; the outcome arrives through `onOpen` or `onError` + `onClose`.
    public func open() {
        connection.start()
    }

    /// Queues a text message without waiting. Throws `.sendBufferFull` (nothing queued) when
    /// it would take `bufferedAmount` beyond `writeLimit` (16 MiB), `.notOpen` before the
    /// handshake and `.closed` once closing.
    public func write(text: String) throws(WebSocketError) {
        if connection.isOnQueue {
            try connection.sendOnQueue(size: text.utf8.count) { machine throws(WebSocketError) in try machine.sendText(text) }
        } else {
            try connection.enqueue(size: text.utf8.count) { machine in try? machine.sendText(text) }
        }
    }

    /// Queues a binary message without waiting; bounded by `writeLimit` like `write(text:)`.
    public func write(data: Data) throws(WebSocketError) {
        if connection.isOnQueue {
            try connection.sendOnQueue(size: data.count) { machine throws(WebSocketError) in try machine.sendBinary(data) }
        } else {
            try connection.enqueue(size: data.count) { machine in try? machine.sendBinary(data) }
        }
    }

    /// Queues a binary message from bytes without waiting.
    public func write(bytes: [UInt8]) throws(WebSocketError) {
        if connection.isOnQueue {
            try connection.sendOnQueue(size: bytes.count) { machine throws(WebSocketError) in try machine.sendBinary(bytes) }
        } else {
            try connection.enqueue(size: bytes.count) { machine in try? machine.sendBinary(bytes) }
        }
    }

    /// Sends a ping with `payload` (at most 125 bytes) without waiting for the pong
    /// (`onPong` reports it).
    public func writePing(_ payload: [UInt8] = []) throws(WebSocketError) {
        guard payload.count <= 125 else { throw .invalidRequest("a ping payload is limited to 125 bytes") }
        if connection.isOnQueue {
            try connection.sendOnQueue(size: 0) { machine throws(WebSocketError) in try machine.sendPing(payload) }
        } else {
            try connection.enqueue(size: payload.count) { machine in try? machine.sendPing(payload) }
        }
    }

    /// Stops reading from the peer until `resumeReading()`, so that TCP pushes back on it (the
    /// callback API's flow control: pause while your handler cannot keep up). Messages already
    /// read are still delivered; pings are not answered while paused, so keep pauses shorter
    /// than the peer's ping timeout. Applies from the opening handshake's completion.
    public func pauseReading() {
        connection.setReadingPausedByUser(true)
    }

    /// Reads from the peer again after `pauseReading()`.
    public func resumeReading() {
        connection.setReadingPausedByUser(false)
    }

    /// Starts the close handshake without waiting; `onClose` reports the end.
    public func disconnect(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        connection.disconnect(code: code, reason: reason)
    }
}
