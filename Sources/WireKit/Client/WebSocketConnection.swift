import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The state behind a `WebSocket`: its driver, the waiters of the async API, the callbacks and
/// the mirrors other threads read. Kept apart from the public object so that the driver can
/// hold it strongly while the connection lives (no weak reference on the per-message path)
/// and the public object's deinit can still close an abandoned connection.
///
/// `@unchecked Sendable`: everything marked "queue" is confined to `queue`; the callback slots
/// and the mirrors marked "lock" are guarded by `lock`; the rest is immutable.
final class WebSocketConnection: @unchecked Sendable {
    let role: WebSocketRole
    let queue: DispatchQueue
    private let highWaterMark: Int
    private let receiveHighWaterMark: Int
    private let writeLimit: Int
    private let receiveLowWaterMark: Int
    private let pingTimeout: Duration
    let log: ConnectionLog

    // queue
    private var driver: WebSocketConnectionDriver?
    /// Client role: why the transport could not be made (reported when started).
    private var startFailure: WebSocketError?
    private var started = false
    private var connectWaiters: [CheckedContinuation<Result<Void, WebSocketError>, Never>] = []
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var pingWaiters: [WebSocketPingID: CheckedContinuation<Result<Void, WebSocketError>, Never>] = [:]
    private var closeWaiters: [CheckedContinuation<WebSocketCloseInfo, Never>] = []
    private var finalInfo: WebSocketCloseInfo?
    private var lastMirroredBufferedAmount = 0
    /// Bytes `sendOnQueue` accepted since `lastMirroredBufferedAmount` was taken, 14 more per
    /// message for the frame header (queue).
    private var sentSinceMirror = 0
    /// Reading paused by `pauseReading()`.
    private var readingPausedByUser = false
    /// Reading paused because `messages` holds more than `receiveHighWaterMark` unread bytes.
    private var readingPausedByStream = false
    /// Set at `.opened`: pausing before then would stall the opening handshake.
    private var isOpen = false
    /// `callbacks` as read at the start of the current pump; `nil` between pumps.
    private var callbackSnapshot: Callbacks?
    /// Set when `enqueue` raised the mirror from another thread, so the next update writes it.
    private var mirrorStale = false
    /// Server role: runs once the upgrade succeeded, before any message is delivered.
    var onServerOpen: (() -> Void)?
    /// Server role: runs once the connection is over.
    var onTerminated: (() -> Void)?

    // lock
    private let lock = WireKitLock()
    private var callbacks = Callbacks()
    private var mirroredBufferedAmount = 0
    private var mirroredHandshakeInfo: WebSocketHandshakeInfo?
    private var mirroredCloseInfo: WebSocketCloseInfo?
    private var mirroredSendState = SendState.notOpen
    /// `messages`, made when first read or yielded to: a connection used through callbacks only
    /// never pays for the two streams and their reader.
    private var messageStream: MessageStream?
    /// Set when the connection is over: a stream made after that is finished at once.
    private var messageStreamFinished = false
    /// Bytes (payload + 64 each) yielded to `messages` and not yet taken by its consumer.
    private var unreadMessageBytes = 0
    /// Whether the consumer must call `streamDrained` when `unreadMessageBytes` reaches the low
    /// water mark (set while reading is paused for the stream).
    private var wantsDrainNotice = false
    /// The batch `enqueue` adds to; nil once its queue block took it or another operation
    /// was queued after it.
    private var openBatch: WriteBatch?
    /// The `QueueTaskExecutor` of `WebSocket.executor`, made on first use (an `AnyObject`: the
    /// type needs Swift 6's runtime on Apple platforms). Guarded by `lock`.
    private var executorObject: AnyObject?
    /// Its `TaskJobInbox` once the driver runs the inbox's jobs after each read. On the queue.
    private var hookedInbox: AnyObject?

    private enum SendState { case notOpen, open, closed }

    struct Callbacks {
        var onOpen: (@Sendable (WebSocketHandshakeInfo) -> Void)?
        var onText: (@Sendable (String) -> Void)?
        var onBinary: (@Sendable (Data) -> Void)?
        var onPing: (@Sendable (Data) -> Void)?
        var onPong: (@Sendable (Data) -> Void)?
        var onClose: (@Sendable (WebSocketCloseInfo) -> Void)?
        var onError: (@Sendable (WebSocketError) -> Void)?
    }

    /// Client role; nothing happens until `start`.
    init(client url: WebSocketURL, options: WebSocketOptions, callbackQueue: DispatchQueue?) throws(WebSocketError) {
        let handshake = try ClientHandshake(url: url, origin: options.origin, subprotocols: options.subprotocols, headers: options.headers)
        // By default one of the shared serial queues: many sockets on a few threads, and no
        // wake-ups of the process while a socket is idle (see `SharedQueues`).
        let queue = DispatchQueue(label: "WireKit.WebSocket", target: callbackQueue ?? SharedQueues.next())
        // A serial callback queue gets an event loop (Linux) shared by its sockets, as the shared
        // queues have: a message is read, handled and called back on one thread wake-up.
        callbackQueue?.bindEventLoopForCallbacks(name: "WireKit.callbacks")
        self.role = .client
        self.queue = queue
        self.highWaterMark = options.sendHighWaterMark
        self.receiveHighWaterMark = options.receiveHighWaterMark
        self.writeLimit = options.writeLimit
        self.receiveLowWaterMark = options.receiveLowWaterMark
        self.pingTimeout = options.pingTimeout
        let configuration = options.configuration
        let factory = options.transportFactory
        let connectTimeout = options.connectTimeout
        let writeLimit = options.writeLimit
        let proxy = try options.proxy(for: url)
        let log = ConnectionLog(sink: options.logSink, client: url, proxy: proxy)
        self.log = log
        // The driver and its unstarted transport are made now rather than on `start`: a closure
        // keeping what they need until then would cost about 600 bytes a connection.
        do {
            let transport = try factory.makeTransport(url, connectTimeout: connectTimeout, proxy: proxy)
            driver = WebSocketConnectionDriver(
                machine: WebSocketStateMachine(client: handshake, configuration: configuration),
                transport: transport, queue: queue, writeLimit: writeLimit, log: log, connectTimeout: connectTimeout)
        } catch {
            startFailure = error
        }
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// Server role: a connection accepted on `transport`, run on `queue`.
    init(
        accepted transport: any Transport, configuration: WebSocketConfiguration, queue: DispatchQueue,
        highWaterMark: Int, receiveWaterMarks: (high: Int, low: Int) = (1 << 20, 256 << 10), writeLimit: Int = 16 << 20,
        pingTimeout: Duration, acceptRequest: (@Sendable (HTTPRequestHead) -> WebSocketUpgradeDecision)? = nil, log: ConnectionLog = .off
    ) {
        self.role = .server
        self.queue = queue
        self.highWaterMark = highWaterMark
        self.receiveHighWaterMark = receiveWaterMarks.high
        self.writeLimit = writeLimit
        self.receiveLowWaterMark = receiveWaterMarks.low
        self.pingTimeout = pingTimeout
        let machine = WebSocketStateMachine(server: configuration, acceptRequest: acceptRequest)
        self.log = log
        self.driver = WebSocketConnectionDriver(machine: machine, transport: transport, queue: queue, writeLimit: writeLimit, log: log)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        messageStream?.buffer.finish()
    }

    /// The messages received while no matching callback is set (any thread).
    var messages: AsyncStream<WebSocketMessage> {
        lock.withLock { currentMessageStream().messages }
    }

    /// The public `messages` stream over a `MessageBuffer`: each message the consumer takes is
    /// counted off `unreadMessageBytes` (through the reader's `owner`).
    /// A class: the per-message path takes one reference to it and yields through its `buffer`.
    private final class MessageStream: Sendable {
        let messages: AsyncStream<WebSocketMessage>
        let buffer: MessageBuffer
        let reader: MessageReader

        init(messages: AsyncStream<WebSocketMessage>, buffer: MessageBuffer, reader: MessageReader) {
            self.messages = messages
            self.buffer = buffer
            self.reader = reader
        }
    }

    /// `messageStream`, made now if there is none yet (lock held).
    private func currentMessageStream() -> MessageStream {
        if let messageStream { return messageStream }
        let buffer = MessageBuffer()
        let reader = MessageReader(buffer)
        // Cancelling the consumer's task ends the stream, as an `AsyncStream` of its own would.
        let outer = AsyncStream<WebSocketMessage>(unfolding: { await reader.next() }, onCancel: { buffer.cancel() })
        let made = MessageStream(messages: outer, buffer: buffer, reader: reader)
        if messageStreamFinished {
            buffer.finish()
        } else {
            reader.setOwner(self)
        }
        messageStream = made
        return made
    }

    /// The one consumer's end of the buffer, and the connection to report takes to.
    ///
    /// The connection is held strongly, like the driver's callbacks hold it, from when the stream
    /// is made until `deliverClosed` lets go: a weak reference would give the connection a side table, and
    /// every retain and release of it on the per-message path would take the slow path (8 % of
    /// `wirebench pipeline` throughput).
    final class MessageReader: @unchecked Sendable {
        // `owner` is guarded by `lock` (set on creation, cleared on the connection's queue).
        private let buffer: MessageBuffer
        private let lock = WireKitLock()
        private var owner: WebSocketConnection?

        init(_ buffer: MessageBuffer) {
            self.buffer = buffer
        }

        func setOwner(_ connection: WebSocketConnection?) {
            lock.withLock { owner = connection }
        }

        func next() async -> WebSocketMessage? {
            let message = await buffer.next()
            if let message, let owner = lock.withLock({ owner }) { owner.messageTaken(message) }
            return message
        }
    }

    static func unreadCost(_ message: WebSocketMessage) -> Int {
        switch message {
        case .text(let text): text.utf8.count + 64
        case .binary(let data): data.count + 64
        }
    }

    /// The consumer took `message` from `messages` (any thread).
    fileprivate func messageTaken(_ message: WebSocketMessage) {
        let notify = lock.withLock { () -> Bool in
            unreadMessageBytes -= Self.unreadCost(message)
            guard wantsDrainNotice, unreadMessageBytes <= receiveLowWaterMark else { return false }
            wantsDrainNotice = false
            return true
        }
        guard notify else { return }
        later { [self] in
            readingPausedByStream = false
            applyReadingPause()
        }
    }

    /// A message for `messages`: yielded, counted, and reading paused above the high-water mark.
    private func yieldMessage(_ message: WebSocketMessage) {
        let (stream, overHighWater) = lock.withLock { () -> (MessageStream, Bool) in
            let stream = currentMessageStream()
            unreadMessageBytes += Self.unreadCost(message)
            guard unreadMessageBytes > receiveHighWaterMark, !readingPausedByStream else { return (stream, false) }
            wantsDrainNotice = true
            return (stream, true)
        }
        stream.buffer.yield(message)
        if overHighWater {
            readingPausedByStream = true
            applyReadingPause()
        }
    }

    /// Stops reading while the user or the stream asks to, resumes when neither does.
    private func applyReadingPause() {
        guard isOpen else { return }
        driver?.setReadingPaused(readingPausedByUser || readingPausedByStream)
    }

    /// `pauseReading()`/`resumeReading()` (any thread).
    func setReadingPausedByUser(_ paused: Bool) {
        later { [self] in
            readingPausedByUser = paused
            applyReadingPause()
        }
    }

    // MARK: Callback slots and mirrors (any thread)

    /// Reads or changes the callback slots. A change made inside a callback (on the queue)
    /// applies from the very next event; one made elsewhere from the next batch of events.
    func withCallbacks<R>(_ body: (inout Callbacks) -> R) -> R {
        let result = lock.withLock { body(&callbacks) }
        if isOnQueue { callbackSnapshot = nil }
        return result
    }

    /// The callbacks for the current batch of events (one lock per batch, not per message).
    private var currentCallbacks: Callbacks {
        if let callbackSnapshot { return callbackSnapshot }
        let snapshot = lock.withLock { callbacks }
        callbackSnapshot = snapshot
        return snapshot
    }

    var bufferedAmount: Int { lock.withLock { mirroredBufferedAmount } }
    var handshakeInfo: WebSocketHandshakeInfo? { lock.withLock { mirroredHandshakeInfo } }
    var closeInfo: WebSocketCloseInfo? { lock.withLock { mirroredCloseInfo } }

    // MARK: async/await

    /// The executor that runs tasks on this connection's queue (`WebSocket.executor`).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    var executor: QueueTaskExecutor {
        lock.withLock {
            if let executorObject { return unsafeDowncast(executorObject, to: QueueTaskExecutor.self) }
            let executor = QueueTaskExecutor(queue: queue)
            let inbox = TaskJobInbox(queueKey: Self.queueKey, owner: ObjectIdentifier(self))
            executor.adopter = inbox
            executorObject = executor
            // The driver runs the inbox's jobs after each read's messages; until this block ran,
            // nothing is collected (`hookedInbox` is nil), so no job waits for a hook not yet set.
            queue.async { [self] in
                driver?.onEventsDelivered = { inbox.runJobs(on: executor) }
                hookedInbox = inbox
            }
            return executor
        }
    }

    var closed: WebSocketCloseInfo {
        get async {
            await withCheckedContinuation { continuation in
                later { [self] in
                    if let finalInfo { continuation.resume(returning: finalInfo) } else { closeWaiters.append(continuation) }
                }
            }
        }
    }

    func connect() async throws(WebSocketError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            later { [self] in
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

    /// Runs `body` on the machine (`size` payload bytes), then waits while more than the
    /// high-water mark is buffered.
    func send(size: Int, _ body: @escaping @Sendable (inout WebSocketStateMachine) throws(WebSocketError) -> Void) async throws(WebSocketError) {
        if isOnQueue {
            // A task on this connection's executor: no hop to the queue it is already on; like
            // `write`, the message is queued at once.
            try perform { machine, _ throws(WebSocketError) in try body(&machine) }.get()
        } else {
            do {
                // Queued like `write`, without waiting for the queue: a task sending one message
                // after another joins them to one block and one write. `.notOpen` and `.closed`
                // come from the state mirrored at the last pump.
                try enqueue(size: size, logsRefusal: false) { machine in try? body(&machine) }
            } catch .sendBufferFull {
                // Beyond `writeLimit`, where `write` refuses, `send` queues and waits instead.
                let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
                    later { [self] in
                        continuation.resume(returning: perform { machine, _ throws(WebSocketError) in try body(&machine) })
                    }
                }
                try result.get()
            }
        }
        guard bufferedAmount > highWaterMark else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            later { [self] in
                if let driver, driver.bufferedAmount > highWaterMark, finalInfo == nil {
                    sendWaiters.append(continuation)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    func ping(timeout: Duration?) async throws(WebSocketError) {
        let timeout = timeout ?? pingTimeout
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            later { [self] in
                let sent = perform { machine, now throws(WebSocketError) in try machine.ping(timeout: timeout, now: now) }
                switch sent {
                case .success(let id): pingWaiters[id] = continuation
                case .failure(let error): continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    func close(code: WebSocketCloseCode, reason: String) async -> WebSocketCloseInfo {
        await withCheckedContinuation { continuation in
            later { [self] in
                if let finalInfo { return continuation.resume(returning: finalInfo) }
                closeWaiters.append(continuation)
                beginClose(code: code, reason: reason)
            }
        }
    }

    // MARK: Callback style

    func start() {
        later { [self] in startIfNeeded() }
    }

    func disconnect(code: WebSocketCloseCode, reason: String) {
        later { [self] in beginClose(code: code, reason: reason) }
    }

    /// The public object was released: an abandoned open connection says goodbye with 1001.
    func ownerReleased() {
        later { [self] in
            // A socket that was never opened has nothing on the wire and no one to tell.
            guard started else { return }
            beginClose(code: .goingAway, reason: "")
        }
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Whether the caller runs on this connection's queue (inside one of its callbacks).
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) }

    /// Sends right away; the caller is on the queue (`isOnQueue`). Throws `.sendBufferFull` when
    /// `size` more bytes would take a non-empty buffer beyond `writeLimit`.
    func sendOnQueue(size: Int, _ body: (inout WebSocketStateMachine) throws(WebSocketError) -> Void) throws(WebSocketError) {
        // What was buffered when the last pump finished plus what was sent since (with a frame
        // header's worth each) bounds what is buffered now, since the kernel only takes bytes
        // away; the exact figure, which costs a walk through the driver and the transport, is
        // only asked for when that bound comes near the limit.
        let bound = lastMirroredBufferedAmount + sentSinceMirror
        if bound > 0, size > writeLimit - bound, let driver, finalInfo == nil {
            let buffered = driver.bufferedAmount
            if buffered > 0, size > writeLimit - buffered {
                log.sendBufferFull(buffered: buffered, limit: writeLimit)
                throw .sendBufferFull(buffered: buffered, limit: writeLimit)
            }
        }
        sentSinceMirror += size + 14
        try perform { machine, _ throws(WebSocketError) in try body(&machine) }.get()
    }

    /// Queues a send without blocking the caller: the open/closed check happens here (against
    /// the mirrored state), the encoding on the queue, in call order. Never `queue.sync`: the
    /// caller may be on the queue this connection's queue targets.
    /// Writes queued from other threads travel in batches: the first write of a batch
    /// schedules one queue block, the writes that follow before it runs join it, and the block
    /// encodes them all and writes them in one go (one hop and one write per burst, not per
    /// message). Every other operation closes the open batch first (`later`), so call order holds.
    /// `logsRefusal`: whether a refusal beyond `writeLimit` is logged (not for `send`, which then
    /// queues and waits instead).
    func enqueue(size: Int, logsRefusal: Bool = true, _ body: @escaping WriteBatch.Write) throws(WebSocketError) {
        lock.lock()
        let state = mirroredSendState
        var started: WriteBatch?
        let buffered = mirroredBufferedAmount
        if state == .open, buffered > 0, size > writeLimit - buffered {
            lock.unlock()
            if logsRefusal { log.sendBufferFull(buffered: buffered, limit: writeLimit) }
            throw .sendBufferFull(buffered: buffered, limit: writeLimit)
        }
        if state == .open {
            mirroredBufferedAmount += size
            if openBatch == nil {
                started = WriteBatch()
                openBatch = started
            }
            openBatch?.writes.append(body)
        }
        lock.unlock()
        switch state {
        case .notOpen: throw .notOpen
        case .closed: throw .closed
        case .open: break
        }
        guard let batch = started else { return }
        queue.async { [self] in
            let writes = lock.withLock { () -> [WriteBatch.Write] in
                if openBatch === batch { openBatch = nil }
                return batch.writes
            }
            // The mirror was raised by `size` above; the pump's update sets the real amount.
            mirrorStale = true
            _ = perform { machine, _ in
                for write in writes { write(&machine) }
            }
        }
    }

    /// Writes queued by `enqueue` and not yet taken by their queue block. Guarded by `lock`.
    final class WriteBatch: @unchecked Sendable {
        /// One queued write. It absorbs its own error (`try?`): each write fails on its own (a
        /// socket closing meanwhile), as if sent alone. Not `throws(WebSocketError)`: a
        /// typed-throws function type kept as a value (an array element) needs runtime support
        /// that Apple platforms ship only from macOS 15 / iOS 18 / tvOS 18 / watchOS 11.
        typealias Write = @Sendable (inout WebSocketStateMachine) -> Void
        var writes: [Write] = []
    }

    /// `queue.async` for every operation other than `enqueue`: ends the open write batch first,
    /// so writes made before this call go out before it and writes made after, after it.
    private func later(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { openBatch = nil }
        queue.async(execute: body)
    }

    // MARK: On the queue

    private func perform<R>(_ body: (inout WebSocketStateMachine, WebSocketInstant) throws(WebSocketError) -> R) -> Result<R, WebSocketError> {
        guard started, let driver else { return .failure(finalInfo == nil ? .notOpen : .closed) }
        let result: Result<R, WebSocketError>
        do {
            result = .success(try driver.perform(body))
        } catch {
            result = .failure(error)
        }
        return result
    }

    private func startIfNeeded() {
        guard !started, finalInfo == nil else { return }
        started = true
        if let startFailure {
            self.startFailure = nil
            let info = WebSocketCloseInfo(code: .abnormalClosure, reason: "", wasClean: false, error: startFailure)
            log.closed(info)
            return deliverClosed(info)
        }
        guard let driver else { return }
        // Strong references: the connection lives while its transport does. `deliverClosed`
        // breaks the cycle.
        driver.onEvent = { [self] event in handle(event) }
        driver.onWritable = { [self] in drained() }
        // The bufferedAmount mirror is refreshed once per pump, not per message.
        driver.onPumpFinished = { [self] in
            callbackSnapshot = nil
            updateBufferedAmount()
        }
        driver.start()
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
        if let hookedInbox, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            unsafeDowncast(hookedInbox, to: TaskJobInbox.self).collecting = true
        }
        switch event {
        case .opened(let info):
            lock.withLock {
                mirroredHandshakeInfo = info
                mirroredSendState = .open
            }
            for waiter in connectWaiters { waiter.resume(returning: .success(())) }
            connectWaiters.removeAll()
            isOpen = true
            if readingPausedByUser { applyReadingPause() }
            onServerOpen?()
            onServerOpen = nil
            currentCallbacks.onOpen?(info)
        case .text(let text):
            if let callback = currentCallbacks.onText { callback(text) } else { yieldMessage(.text(text)) }
        case .binary(let data):
            if let callback = currentCallbacks.onBinary { callback(data) } else { yieldMessage(.binary(data)) }
        case .ping(let data):
            currentCallbacks.onPing?(data)
        case .pong(let data):
            currentCallbacks.onPong?(data)
        case .pingCompleted(let id):
            pingWaiters.removeValue(forKey: id)?.resume(returning: .success(()))
        case .pingTimedOut(let id):
            pingWaiters.removeValue(forKey: id)?.resume(returning: .failure(.timedOut(.pong(limit: pingTimeout))))
        case .closed(let info):
            deliverClosed(info)
        }
    }

    private func deliverClosed(_ info: WebSocketCloseInfo) {
        guard finalInfo == nil else { return }
        finalInfo = info
        let (callbacks, stream) = lock.withLock { () -> (Callbacks, MessageStream?) in
            mirroredCloseInfo = info
            mirroredSendState = .closed
            let current = self.callbacks
            // Callbacks often capture the socket; dropping them breaks that cycle.
            self.callbacks = Callbacks()
            messageStreamFinished = true
            return (current, messageStream)
        }
        callbackSnapshot = nil
        let failure = info.error ?? .closed
        for waiter in connectWaiters { waiter.resume(returning: .failure(failure)) }
        connectWaiters.removeAll()
        for waiter in pingWaiters.values { waiter.resume(returning: .failure(.closed)) }
        pingWaiters.removeAll()
        for waiter in sendWaiters { waiter.resume() }
        sendWaiters.removeAll()
        for waiter in closeWaiters { waiter.resume(returning: info) }
        closeWaiters.removeAll()
        stream?.buffer.finish()
        stream?.reader.setOwner(nil)  // breaks the reader's cycle, as below for the driver's
        if let error = info.error { callbacks.onError?(error) }
        callbacks.onClose?(info)
        onTerminated?()
        onTerminated = nil
        onServerOpen = nil
        // The driver may still write a close echo and close the transport; it needs no more
        // of this connection.
        driver?.onEvent = { _ in }
        driver?.onWritable = {}
        driver?.onPumpFinished = {}
        updateBufferedAmount()
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
        sentSinceMirror = 0
        guard mirrorStale || amount != lastMirroredBufferedAmount else { return }
        mirrorStale = false
        lastMirroredBufferedAmount = amount
        lock.withLock { mirroredBufferedAmount = amount }
    }
}
