import Dispatch
import Foundation

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
/// no extra hop), or the global queue by default. Don't block in a callback: it holds up the
/// socket's I/O.
///
/// Each received message goes to `onText`/`onBinary` when that callback is set at the time it
/// arrives, and into `messages` otherwise. Dropping the last reference to an open client
/// closes it with 1001 (going away).
///
/// `@unchecked Sendable`: the connection state lives on the socket's serial queue (all
/// properties marked "queue" below); the callback slots and the observable mirrors
/// (`bufferedAmount`, `handshakeInfo`, `closeInfo`, whether sending is allowed) are guarded by
/// `lock`.
public final class WebSocket: @unchecked Sendable {
    /// Client or server end.
    public let role: WebSocketRole
    /// Client role: the URL connected to.
    public let url: WebSocketURL?
    /// The messages received while no matching callback is set; finishes when the connection
    /// closes. One consumer.
    public let messages: AsyncStream<WebSocketMessage>

    private let queue: DispatchQueue
    private let highWaterMark: Int
    private let pingTimeout: Duration
    private let makeDriver: (@Sendable (WebSocket) throws(WebSocketError) -> WebSocketConnectionDriver)?

    // queue
    private var driver: WebSocketConnectionDriver?
    private var started = false
    private var connectWaiters: [CheckedContinuation<Result<Void, WebSocketError>, Never>] = []
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var pingWaiters: [WebSocketPingID: CheckedContinuation<Result<Void, WebSocketError>, Never>] = [:]
    private var closeWaiters: [CheckedContinuation<WebSocketCloseInfo, Never>] = []
    private var finalInfo: WebSocketCloseInfo?
    private let messageSink: AsyncStream<WebSocketMessage>.Continuation
    /// Server role: runs once the upgrade succeeded, before any message is delivered.
    var onServerOpen: ((WebSocket) -> Void)?
    /// Server role: runs once the connection is over.
    var onTerminated: ((WebSocket) -> Void)?

    // lock
    private let lock = NSLock()
    private var callbacks = Callbacks()
    private var mirroredBufferedAmount = 0
    private var mirroredHandshakeInfo: WebSocketHandshakeInfo?
    private var mirroredCloseInfo: WebSocketCloseInfo?
    private var mirroredSendState = SendState.notOpen

    private enum SendState { case notOpen, open, closed }

    private struct Callbacks {
        var onOpen: (@Sendable (WebSocketHandshakeInfo) -> Void)?
        var onText: (@Sendable (String) -> Void)?
        var onBinary: (@Sendable (Data) -> Void)?
        var onPing: (@Sendable (Data) -> Void)?
        var onPong: (@Sendable (Data) -> Void)?
        var onClose: (@Sendable (WebSocketCloseInfo) -> Void)?
        var onError: (@Sendable (WebSocketError) -> Void)?
    }

    /// A client for `url` (`ws://host:port/path?query`). Nothing happens until `connect()` or
    /// `open()`. Throws `.invalidURL` or `.invalidRequest` (bad header, origin or subprotocol).
    /// - Parameter callbackQueue: the queue callbacks run on; the socket's own serial queue
    ///   targets it (default: the global queue).
    public convenience init(url: String, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        try self.init(url: try WebSocketURL(url), options: options, callbackQueue: callbackQueue)
    }

    /// A client for `url`; see `init(url:options:callbackQueue:)`.
    public convenience init(url: URL, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        try self.init(url: try WebSocketURL(url), options: options, callbackQueue: callbackQueue)
    }

    /// A client for a parsed URL; see `init(url:options:callbackQueue:)`.
    public init(url: WebSocketURL, options: WebSocketOptions = WebSocketOptions(), callbackQueue: DispatchQueue? = nil) throws(WebSocketError) {
        let handshake = try ClientHandshake(url: url, origin: options.origin, subprotocols: options.subprotocols, headers: options.headers)
        // The non-overcommitting global queue by default keeps many sockets on a few threads.
        let queue = DispatchQueue(label: "WireKit.WebSocket", target: callbackQueue ?? .global())
        self.role = .client
        self.url = url
        self.queue = queue
        self.highWaterMark = options.sendHighWaterMark
        self.pingTimeout = options.pingTimeout
        (messages, messageSink) = AsyncStream.makeStream(of: WebSocketMessage.self)
        let configuration = options.configuration
        let factory = options.transportFactory
        let connectTimeout = options.connectTimeout
        makeDriver = { _ throws(WebSocketError) in
            let transport = try factory.makeTransport(url, connectTimeout)
            return WebSocketConnectionDriver(machine: WebSocketStateMachine(client: handshake, configuration: configuration),
                                             transport: transport, queue: queue)
        }
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// Server role: a connection accepted on `transport`, run on `queue`.
    init(accepted transport: any Transport, configuration: WebSocketConfiguration, queue: DispatchQueue,
         highWaterMark: Int, pingTimeout: Duration) {
        self.role = .server
        self.url = nil
        self.queue = queue
        self.highWaterMark = highWaterMark
        self.pingTimeout = pingTimeout
        (messages, messageSink) = AsyncStream.makeStream(of: WebSocketMessage.self)
        makeDriver = nil
        driver = WebSocketConnectionDriver(machine: WebSocketStateMachine(server: configuration), transport: transport, queue: queue)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        // Only reachable for a client the user let go of (an open connection's driver holds
        // no strong reference back): say goodbye so the peer is not left hanging.
        if let driver {
            queue.async {
                _ = try? driver.perform { machine, now throws(WebSocketError) in machine.close(code: .goingAway, reason: "", now: now) }
            }
        }
        messageSink.finish()
    }

    // MARK: Callbacks

    /// Called when the opening handshake succeeded.
    public var onOpen: (@Sendable (WebSocketHandshakeInfo) -> Void)? {
        get { lock.withLock { callbacks.onOpen } }
        set { lock.withLock { callbacks.onOpen = newValue } }
    }

    /// Called with each text message (instead of yielding it to `messages`).
    public var onText: (@Sendable (String) -> Void)? {
        get { lock.withLock { callbacks.onText } }
        set { lock.withLock { callbacks.onText = newValue } }
    }

    /// Called with each binary message (instead of yielding it to `messages`).
    public var onBinary: (@Sendable (Data) -> Void)? {
        get { lock.withLock { callbacks.onBinary } }
        set { lock.withLock { callbacks.onBinary = newValue } }
    }

    /// Called with each ping's payload (the pong is already on its way).
    public var onPing: (@Sendable (Data) -> Void)? {
        get { lock.withLock { callbacks.onPing } }
        set { lock.withLock { callbacks.onPing = newValue } }
    }

    /// Called with each pong's payload.
    public var onPong: (@Sendable (Data) -> Void)? {
        get { lock.withLock { callbacks.onPong } }
        set { lock.withLock { callbacks.onPong = newValue } }
    }

    /// Called once when the connection is over, with the code, reason and whether it was clean.
    public var onClose: (@Sendable (WebSocketCloseInfo) -> Void)? {
        get { lock.withLock { callbacks.onClose } }
        set { lock.withLock { callbacks.onClose = newValue } }
    }

    /// Called once, before `onClose`, when the connection failed (could not connect, handshake
    /// rejected, protocol violation, timeout, ...).
    public var onError: (@Sendable (WebSocketError) -> Void)? {
        get { lock.withLock { callbacks.onError } }
        set { lock.withLock { callbacks.onError = newValue } }
    }

    // MARK: Observable state

    /// Bytes accepted by `send`/`write` and not yet handed to the kernel.
    public var bufferedAmount: Int { lock.withLock { mirroredBufferedAmount } }

    /// What the opening handshake settled (subprotocol, the peer's headers), once open.
    public var handshakeInfo: WebSocketHandshakeInfo? { lock.withLock { mirroredHandshakeInfo } }

    /// How the connection ended, once it has.
    public var closeInfo: WebSocketCloseInfo? { lock.withLock { mirroredCloseInfo } }

    /// Waits until the connection is over and returns how it ended.
    public var closed: WebSocketCloseInfo {
        get async {
            await withCheckedContinuation { continuation in
                queue.async { [self] in
                    if let finalInfo { continuation.resume(returning: finalInfo) } else { closeWaiters.append(continuation) }
                }
            }
        }
    }

    // MARK: async/await

    /// Connects and completes the opening handshake. Throws the reason it failed (connection
    /// refused, host not found, timeout, handshake rejected with its status, ...).
    public func connect() async throws(WebSocketError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            queue.async { [self] in
                if let finalInfo {
                    return continuation.resume(returning: .failure(finalInfo.error ?? .closed))
                }
                if driver?.phase == .open { return continuation.resume(returning: .success(())) }
                connectWaiters.append(continuation)
                startIfNeeded()
            }
        }
        try result.get()
    }

    /// Sends a text message. Waits while more than `sendHighWaterMark` bytes are buffered.
    /// Throws `.notOpen` before the handshake and `.closed` once closing.
    public func send(text: String) async throws(WebSocketError) {
        try await send { machine throws(WebSocketError) in try machine.sendText(text) }
    }

    /// Sends a binary message. Waits while more than `sendHighWaterMark` bytes are buffered.
    public func send(data: Data) async throws(WebSocketError) {
        try await send { machine throws(WebSocketError) in try machine.sendBinary(data) }
    }

    /// Sends a binary message from bytes. Waits while more than `sendHighWaterMark` bytes are buffered.
    public func send(bytes: [UInt8]) async throws(WebSocketError) {
        try await send { machine throws(WebSocketError) in try machine.sendBinary(bytes) }
    }

    private func send(_ body: @escaping @Sendable (inout WebSocketStateMachine) throws(WebSocketError) -> Void) async throws(WebSocketError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            queue.async { [self] in
                continuation.resume(returning: perform { machine, _ throws(WebSocketError) in try body(&machine) })
            }
        }
        try result.get()
        await waitForDrain()
    }

    /// Resumes once buffered bytes are at or below the high-water mark (or the connection ended).
    private func waitForDrain() async {
        guard bufferedAmount > highWaterMark else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if let driver, driver.bufferedAmount > highWaterMark, finalInfo == nil {
                    sendWaiters.append(continuation)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// Sends a ping and waits for its pong. Throws `.timedOut` when none arrives within
    /// `timeout` (default `pingTimeout`), `.closed` if the connection ends first.
    public func ping(timeout: Duration? = nil) async throws(WebSocketError) {
        let timeout = timeout ?? pingTimeout
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            queue.async { [self] in
                let sent = perform { machine, now throws(WebSocketError) in try machine.ping(timeout: timeout, now: now) }
                switch sent {
                case .success(let id): pingWaiters[id] = continuation
                case .failure(let error): continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// Starts the close handshake and waits until the connection is over (bounded by
    /// `closeTimeout`). Returns how it ended. Before the handshake finished, it abandons the
    /// connection.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async -> WebSocketCloseInfo {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if let finalInfo { return continuation.resume(returning: finalInfo) }
                closeWaiters.append(continuation)
                beginClose(code: code, reason: reason)
            }
        }
    }

    // MARK: Callback style

    /// Starts connecting; the outcome arrives through `onOpen` or `onError` + `onClose`.
    public func open() {
        queue.async { [self] in startIfNeeded() }
    }

    /// Queues a text message without waiting (no backpressure: check `bufferedAmount`).
    /// Throws `.notOpen` before the handshake and `.closed` once closing.
    public func write(text: String) throws(WebSocketError) {
        try enqueue(size: text.utf8.count) { machine throws(WebSocketError) in try machine.sendText(text) }
    }

    /// Queues a binary message without waiting (no backpressure: check `bufferedAmount`).
    public func write(data: Data) throws(WebSocketError) {
        try enqueue(size: data.count) { machine throws(WebSocketError) in try machine.sendBinary(data) }
    }

    /// Queues a binary message from bytes without waiting.
    public func write(bytes: [UInt8]) throws(WebSocketError) {
        try enqueue(size: bytes.count) { machine throws(WebSocketError) in try machine.sendBinary(bytes) }
    }

    /// Sends a ping with `payload` (at most 125 bytes) without waiting for the pong
    /// (`onPong` reports it).
    public func writePing(_ payload: [UInt8] = []) throws(WebSocketError) {
        guard payload.count <= 125 else { throw .invalidRequest("a ping payload is limited to 125 bytes") }
        try enqueue(size: payload.count) { machine throws(WebSocketError) in try machine.sendPing(payload) }
    }

    /// Starts the close handshake without waiting; `onClose` reports the end.
    public func disconnect(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        queue.async { [self] in beginClose(code: code, reason: reason) }
    }

    // MARK: On the queue

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Queues a send without blocking the caller: the open/closed check happens here (against
    /// the mirrored state), the encoding on the queue, in call order. Inline when already on
    /// the queue (inside a callback). Never `queue.sync`: the caller may be on the queue this
    /// socket's queue targets.
    private func enqueue(size: Int, _ body: @escaping @Sendable (inout WebSocketStateMachine) throws(WebSocketError) -> Void) throws(WebSocketError) {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) {
            return try perform { machine, _ throws(WebSocketError) in try body(&machine) }.get()
        }
        lock.lock()
        let state = mirroredSendState
        if state == .open { mirroredBufferedAmount += size }
        lock.unlock()
        switch state {
        case .notOpen: throw .notOpen
        case .closed: throw .closed
        case .open: break
        }
        queue.async { [self] in _ = perform { machine, _ throws(WebSocketError) in try body(&machine) } }
    }

    private func perform<R>(_ body: (inout WebSocketStateMachine, WebSocketInstant) throws(WebSocketError) -> R) -> Result<R, WebSocketError> {
        guard let driver else { return .failure(finalInfo == nil ? .notOpen : .closed) }
        let result: Result<R, WebSocketError>
        do {
            result = .success(try driver.perform(body))
        } catch {
            result = .failure(error)
        }
        updateBufferedAmount()
        return result
    }

    private func startIfNeeded() {
        guard !started, finalInfo == nil else { return }
        started = true
        if driver == nil, let makeDriver {
            do {
                driver = try makeDriver(self)
            } catch {
                return deliverClosed(WebSocketCloseInfo(code: .abnormalClosure, reason: "", wasClean: false, error: error))
            }
        }
        guard let driver else { return }
        driver.onEvent = { [weak self] event in self?.handle(event) }
        driver.onWritable = { [weak self] in self?.drained() }
        driver.start()
    }

    /// Server role: starts reading the upgrade request.
    func startAccepted() {
        queue.async { [self] in startIfNeeded() }
    }

    private func beginClose(code: WebSocketCloseCode, reason: String) {
        guard finalInfo == nil else { return }
        guard started, driver != nil else {
            // Never started: nothing on the wire to close.
            started = true
            return deliverClosed(WebSocketCloseInfo(code: code, reason: reason, wasClean: false, error: nil))
        }
        lock.withLock { mirroredSendState = .closed }
        _ = perform { machine, now throws(WebSocketError) in machine.close(code: code, reason: reason, now: now) }
    }

    private func handle(_ event: WebSocketEvent) {
        switch event {
        case .opened(let info):
            lock.withLock {
                mirroredHandshakeInfo = info
                mirroredSendState = .open
            }
            for waiter in connectWaiters { waiter.resume(returning: .success(())) }
            connectWaiters.removeAll()
            onServerOpen?(self)
            onOpen?(info)
        case .text(let text):
            if let callback = onText { callback(text) } else { messageSink.yield(.text(text)) }
        case .binary(let data):
            if let callback = onBinary { callback(data) } else { messageSink.yield(.binary(data)) }
        case .ping(let data):
            onPing?(data)
        case .pong(let data):
            onPong?(data)
        case .pingCompleted(let id):
            pingWaiters.removeValue(forKey: id)?.resume(returning: .success(()))
        case .pingTimedOut(let id):
            pingWaiters.removeValue(forKey: id)?.resume(returning: .failure(.timedOut("no pong within \(pingTimeout)")))
        case .closed(let info):
            deliverClosed(info)
        }
        updateBufferedAmount()
    }

    private func deliverClosed(_ info: WebSocketCloseInfo) {
        guard finalInfo == nil else { return }
        finalInfo = info
        let callbacks = lock.withLock { () -> Callbacks in
            mirroredCloseInfo = info
            mirroredSendState = .closed
            let current = self.callbacks
            // Callbacks often capture this socket; dropping them breaks that cycle.
            self.callbacks = Callbacks()
            return current
        }
        let failure = info.error ?? .closed
        for waiter in connectWaiters { waiter.resume(returning: .failure(failure)) }
        connectWaiters.removeAll()
        for waiter in pingWaiters.values { waiter.resume(returning: .failure(.closed)) }
        pingWaiters.removeAll()
        for waiter in sendWaiters { waiter.resume() }
        sendWaiters.removeAll()
        for waiter in closeWaiters { waiter.resume(returning: info) }
        closeWaiters.removeAll()
        messageSink.finish()
        if let error = info.error { callbacks.onError?(error) }
        callbacks.onClose?(info)
        onTerminated?(self)
        onTerminated = nil
        onServerOpen = nil
    }

    private func drained() {
        updateBufferedAmount()
        guard let driver, driver.bufferedAmount <= highWaterMark || finalInfo != nil else { return }
        let waiters = sendWaiters
        sendWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    private func updateBufferedAmount() {
        let amount = driver?.bufferedAmount ?? 0
        lock.withLock { mirroredBufferedAmount = amount }
    }
}
