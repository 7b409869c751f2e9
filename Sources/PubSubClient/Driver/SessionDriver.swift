import Dispatch
import Foundation
import WireKit

/// Runs a `ClientSession` on one serial queue: executes its actions over a transport, arms one
/// DispatchSourceTimer for its `nextDeadline`, keeps the token store in sync, routes events
/// through its `router` (the one registry of listeners, receivers, channel consumers and
/// procedures) and completes calls. `ClientCore`, which both public faces compose, owns it.
///
/// The WebSocket runs on this same queue (`WireKitTransport`), so a session step and the
/// socket's reads and writes need no hop between them; the messages of one step leave in one
/// write. With a serial `callbackQueue` other than the main queue, the session queue targets it
/// and callbacks run inline (`deliver`); with the main queue, one dispatch per step carries
/// all of that step's callbacks, and a main queue more than 256 callbacks behind pauses reading
/// the socket as a stream's backlog does.
///
/// `@unchecked Sendable`: every mutable property is only touched on `queue`.
final class SessionDriver: QueueTaskJobAdopter, @unchecked Sendable {
    typealias Completion = @Sendable (Result<JSONValue?, PubSubError>) -> Void
    /// Resumes a `connect` with the session's `completeConnect`.
    typealias ConnectCompletion = @Sendable (Result<HandshakeInfo, PubSubError>) -> Void

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    private var session: ClientSession
    private let tokenStore: any TokenStore
    private let transportFactory: any SessionTransportFactory
    private var transports: [TransportID: any SessionTransport] = [:]
    private var currentTransport: TransportID?
    private var timer: QueueTimer?
    private var armedDeadline: MonotonicInstant?
    /// By call number (handed out in order: no hashing, see `SequentialKeyTable`).
    private var completions = SequentialKeyTable<Completion>()
    private var connectCompletions: [CallID: ConnectCompletion] = [:]
    /// Where events go; touched on the queue only.
    let router = EventRouter()
    private let frameObserver: (@Sendable (FrameDirection, String) -> Void)?
    private var expiryTimer: DispatchSourceTimer?
    #if canImport(Network)
    private var pathObserver: NetworkPathObserver?
    #endif
    /// Where `deliver` runs callbacks; nil when they run inline on `queue`.
    private let callbackQueue: DispatchQueue?
    /// `callbackQueue`, when `queue` targets it and it is serial (`queueKey` set on it too, so
    /// calls made from it run inline). A global queue is a target but not serial: nil then.
    private let targetQueue: DispatchQueue?
    /// Callbacks of the current step, for `callbackQueue`.
    private var pendingDeliveries: [@Sendable () -> Void] = []
    private var executing = false
    /// A block that flushes is queued behind the submitted calls (`submitCall`).
    private var flushScheduled = false
    /// The transport that has messages waiting for `flush()`.
    private var unflushed: (any SessionTransport)?
    /// App streams whose consumer is behind (over their high-water mark): the socket is not
    /// read while any is, so the server is pushed back instead of memory growing.
    private var backloggedStreams: Set<UInt64> = []
    /// The callbacks sent to `callbackQueue` (the main queue) and not yet run, counted like a
    /// stream's unread items: a main queue more than `StreamFlowControl.highWaterMark` callbacks
    /// behind pauses reading too. Nil when callbacks run inline (a slow callback then holds the
    /// session queue, and with it the socket's reads).
    private var deliveryBacklog: StreamBacklog?
    /// `deliveryBacklog`'s key in `backloggedStreams`; router tokens count up from 1.
    private static let deliveryBacklogToken = UInt64.max
    /// `SessionConfiguration.logSink`; `sessionLog` is fed only when it is on.
    private let logSink: LogSink
    private var sessionLog: SessionLog
    /// The `QueueTaskExecutor` of `PubSubClient.executor` (an `AnyObject` here: the type needs
    /// Swift 6's runtime on Apple platforms); nil where that runtime is missing.
    private let executorObject: AnyObject?
    /// Jobs of tasks preferring the executor, resumed during the current step (`adopt`): the step
    /// runs them after its actions, then sends what they sent with its own messages.
    private var adoptedJobs: [UnownedJob] = []
    /// A read's messages are being delivered (by a transport that reports `endOfRead`): adopted
    /// jobs wait for its end, so the tasks resume once per read, not once per message.
    private var readInProgress = false
    /// A job was adopted once: from then on reads are tracked (`readInProgress`). Until then a
    /// client nobody runs tasks for (the closure face) pays nothing per read for it.
    private var adoptsJobs = false
    /// Guards `openMirror` and `openTransmits`, the state that `submitTransmit` reads and writes
    /// from other threads.
    private let transmitLock = WireKitLock()
    /// Whether the session was open at the end of its last step (guarded by `transmitLock`).
    private var openMirror = false
    /// The transmits waiting for their queue block, while later ones may still join it (guarded
    /// by `transmitLock`); nil once that block took them or a call was queued after them.
    private var openTransmits: TransmitBatch?
    /// `openMirror` as last published, read on the queue only.
    private var publishedOpen = false

    /// `callbackQueue`: where the face's callbacks run (nil: inline on the session queue). A
    /// serial queue other than the main queue becomes the session queue's target, so the
    /// callbacks run inline; the main queue stays free of session work.
    init(
        configuration: SessionConfiguration, tokenStore: any TokenStore,
        transportFactory: any SessionTransportFactory, label: String = "PubSubClient.session",
        callbackQueue: DispatchQueue? = nil
    ) {
        if let callbackQueue, !callbackQueue.isMainQueue {
            queue = DispatchQueue(label: label, target: callbackQueue)
            // Blocks of a concurrent queue do not exclude each other: no inline calls from them.
            targetQueue = callbackQueue.isGlobalQueue ? nil : callbackQueue
            // The session's socket is read on a loop bound to the (serial) callback queue, so an
            // answer is read, handled and called back on one thread wake-up (Linux; see
            // `EventLoop`). All sessions on that queue share the loop.
            callbackQueue.bindEventLoopForCallbacks(name: "PubSubClient")
            self.callbackQueue = nil
        } else {
            // One of WireKit's shared serial queues: many clients share a few threads, and an
            // idle client leaves the process asleep (see `SharedQueues`).
            queue = DispatchQueue(label: label, target: SharedQueues.next())
            targetQueue = nil
            self.callbackQueue = callbackQueue
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            executorObject = QueueTaskExecutor(queue: queue)
        } else {
            executorObject = nil
        }
        self.tokenStore = tokenStore
        self.transportFactory = transportFactory
        frameObserver = configuration.frameObserver
        logSink = configuration.logSink
        sessionLog = SessionLog(sink: configuration.logSink, server: configuration.address.tokenKeyHost)
        var loadError: PubSubError?
        var stored: String?
        do { stored = try tokenStore.loadToken(name: configuration.tokenName) } catch {
            loadError = .tokenStore("loading \(configuration.tokenName): \(error)")
        }
        session = ClientSession(configuration: configuration, storedToken: stored)
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        // A block running on the target queue excludes the session queue just as well, so
        // calls made from it run inline (a `queue.sync` from there would deadlock).
        targetQueue?.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        if self.callbackQueue != nil {
            let backlog = StreamBacklog(driver: self)
            backlog.token = Self.deliveryBacklogToken
            deliveryBacklog = backlog
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) { executor.adopter = self }
        if let loadError { queue.async { self.broadcast(.error(loadError)) } }
        #if canImport(Network)
        if configuration.reconnectWhenNetworkReturns {
            pathObserver = NetworkPathObserver(queue: queue) { [weak self] in
                self?.run { session, now in session.networkBecameAvailable(now: now) }
            }
        }
        #endif
    }

    deinit {
        // On the queue: an event loop may be firing the timer there right now (its handler holds
        // this driver weakly, so it can go while the timer is scheduled).
        if let timer { queue.async { timer.cancel() } }
        expiryTimer?.cancel()
        targetQueue?.setSpecific(key: queueKey, value: nil)
        for transport in transports.values { queue.async { transport.close(code: 1000, reason: "") } }
    }

    /// Whether the caller may touch the session now: on `queue`, or on the queue it targets.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) }

    /// Whether `deliver` runs callbacks at once (the session queue targets the callback queue).
    var deliversInline: Bool { callbackQueue == nil }

    /// Runs a face's callback: inline when the session queue targets the callback queue, else
    /// collected and sent to the callback queue in one dispatch at the end of the step. On the
    /// queue.
    func deliver(_ callback: @escaping @Sendable () -> Void) {
        if callbackQueue == nil { return callback() }
        pendingDeliveries.append(callback)
    }

    /// Monotonic now (the system's uptime clock).
    var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds)
    }

    /// Runs `body` on the queue (inline when already on it), then executes the actions it made.
    @discardableResult
    func withSession<T>(_ body: (inout ClientSession, MonotonicInstant) throws(PubSubError) -> T) throws(PubSubError) -> T {
        if isOnQueue {
            return try runOnQueue(body)
        }
        let result: Result<T, PubSubError> = queue.sync {
            do throws(PubSubError) { return .success(try runOnQueue(body)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` on the queue (inline when already on it), then executes the actions it made.
    @discardableResult
    func run<T>(_ body: (inout ClientSession, MonotonicInstant) -> T) -> T {
        onQueue {
            let result = body(&session, now)
            execute()
            return result
        }
    }

    /// Reads session state on the queue.
    func read<T>(_ body: (ClientSession) -> T) -> T {
        if isOnQueue { return body(session) }
        return queue.sync { body(session) }
    }

    /// Starts a call and registers its completion before the call's actions run (they run
    /// after `start` returns, so even an immediate completion finds it).
    func call(_ start: (inout ClientSession, MonotonicInstant) -> CallID, completion: @escaping Completion) {
        run { session, now in
            let id = start(&session, now)
            completions.insert(completion, for: id.rawValue)
        }
    }

    /// `call` for a caller that must not block (an async task): the call starts on the queue
    /// later, in order with other submissions. Calls submitted together share one write: the
    /// flush waits behind the blocks already queued.
    func submitCall(
        _ start: @escaping @Sendable (inout ClientSession, MonotonicInstant) -> CallID,
        completion: @escaping Completion
    ) {
        if isOnQueue { return call(start, completion: completion) }
        // Transmits queued before this call go before it: later ones start a batch of their own.
        transmitLock.withLock { openTransmits = nil }
        queue.async { [self] in
            let id = start(&session, now)
            completions.insert(completion, for: id.rawValue)
            execute(flush: false)
        }
    }

    /// Sends a transmit or a publish without an ack. On the queue (or its target) it runs at once;
    /// from another thread while the session is open it joins the transmits queued since the last
    /// call, which one block sends together in one write (the caller never waits for the queue,
    /// and messages keep the order they were given in on each thread); while not open it runs in
    /// a `queue.sync`, so the caller learns at once if the outbound queue is full. A transmit
    /// queued while open that meets a closed session (it closed meanwhile) is queued for the next
    /// connection like any other; should that queue be full, the error is reported as an `error`
    /// event.
    func submitTransmit(_ body: @escaping TransmitBatch.Step) throws(PubSubError) {
        let throwing: (inout ClientSession, MonotonicInstant) throws(PubSubError) -> Void = { session, now throws(PubSubError) in
            if let error = body(&session, now) { throw error }
        }
        if isOnQueue { return try runOnQueue(throwing) }
        let (joined, batch) = transmitLock.withLock { () -> (Bool, TransmitBatch?) in
            guard openMirror else { return (false, nil) }
            if let openTransmits {
                openTransmits.bodies.append(body)
                return (true, nil)
            }
            let batch = TransmitBatch(body)
            openTransmits = batch
            return (true, batch)
        }
        guard joined else { return try withSession(throwing) }
        guard let batch else { return }
        queue.async { [self] in
            transmitLock.withLock { if openTransmits === batch { openTransmits = nil } }
            let now = self.now
            for body in batch.bodies {
                if let error = body(&session, now) { broadcast(.error(error)) }
            }
            execute()
        }
    }

    /// Closes like `ClientSession.disconnect` and waits until the connection that was current
    /// has finished its closing handshake (or timed out). Returns how it ended; nil when none was open.
    func disconnectAndWait(code: UInt16, reason: String) async -> WebSocketCloseInfo? {
        let current: (any SessionTransport)? = run { session, now in
            let current = currentTransport.flatMap { transports[$0] }
            session.disconnect(code: code, reason: reason, now: now)
            return current
        }
        return await current?.closed()
    }

    /// `ClientSession.connect` as a call: `completion` gets the handshake (at once when open) or
    /// why the attempt ended before it. `skip`, run first on the queue, may call the attempt off.
    func connect(skip: () -> Bool = { false }, completion: @escaping ConnectCompletion) {
        onQueue {
            if skip() { return }
            let id = session.connect(now: now)
            connectCompletions[id] = completion
            execute()
        }
    }

    /// Registers with the router on the queue; returns the registration's token.
    func register(_ body: (EventRouter) -> UInt64) -> UInt64 {
        onQueue { body(router) }
    }

    /// Removes a router registration, later on the queue (callers may be inside a session access).
    func unregister(_ token: UInt64) {
        queue.async { [self] in
            router.remove(token)
            setBacklogged(token, false)
        }
    }

    /// Whether a stream behind its high-water mark holds reading paused (for tests).
    var isReadingPausedByStreams: Bool { onQueue { !backloggedStreams.isEmpty } }

    /// Marks the stream `token` behind or caught up, pausing or resuming reading. On the queue.
    func setBacklogged(_ token: UInt64, _ backlogged: Bool) {
        let wasPaused = !backloggedStreams.isEmpty
        if backlogged { backloggedStreams.insert(token) } else { backloggedStreams.remove(token) }
        guard wasPaused != !backloggedStreams.isEmpty else { return }
        applyReadingPause()
    }

    private func applyReadingPause() {
        guard let currentTransport, let transport = transports[currentTransport] else { return }
        transport.setReadingPaused(!backloggedStreams.isEmpty)
    }

    // MARK: Queue internals

    private func onQueue<T>(_ body: () -> T) -> T {
        if isOnQueue { return body() }
        return queue.sync(execute: body)
    }

    private func runOnQueue<T>(_ body: (inout ClientSession, MonotonicInstant) throws(PubSubError) -> T) throws(PubSubError) -> T {
        let result: T
        do {
            result = try body(&session, now)
        } catch {
            if logSink.isOn, error.code == .outboundQueueFull { sessionLog.outboundQueueFull(error) }
            execute()
            throw error
        }
        execute()
        return result
    }

    /// Performs the session's actions until it has none, then sends the step's messages (one
    /// write), its callbacks (one dispatch at most) and re-arms the timer. A call made from
    /// inside (a callback that invokes again) folds into the running loop, so actions keep
    /// their order.
    private func execute(flush: Bool = true) {
        if executing { return }
        executing = true
        while let action = session.nextAction() { perform(action) }
        if !adoptedJobs.isEmpty, !readInProgress { runAdoptedJobs() }
        executing = false
        let open = session.state == .open
        if open != publishedOpen {
            publishedOpen = open
            transmitLock.withLock { openMirror = open }
        }
        if !flush, unflushed != nil {
            if !flushScheduled {
                flushScheduled = true
                queue.async { [self] in
                    flushScheduled = false
                    execute()
                }
            }
        } else if let transport = unflushed {
            unflushed = nil
            transport.flush()
        }
        if !pendingDeliveries.isEmpty, let callbackQueue {
            let batch = pendingDeliveries
            pendingDeliveries.removeAll()
            let backlog = deliveryBacklog
            backlog?.added(batch.count)
            callbackQueue.async {
                for callback in batch { callback() }
                backlog?.taken(batch.count)
            }
        }
        rearmTimer()
    }

    /// The executor of `PubSubClient.executor`: tasks preferring it run on `queue`, and those
    /// resumed during a step are adopted by it (`adopt`).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    var executor: QueueTaskExecutor {
        // Set in `init` whenever this availability holds.
        unsafeDowncast(executorObject!, to: QueueTaskExecutor.self)
    }

    /// Takes a job of a task preferring the executor when a step is running on this thread: the
    /// step runs it (`runAdoptedJobs`) once its actions are done, and once the read under way was
    /// all delivered; what the job sends joins the step's write. False elsewhere.
    func adopt(_ job: UnownedJob) -> Bool {
        guard isOnQueue, executing else { return false }
        adoptedJobs.append(job)
        adoptsJobs = true
        return true
    }

    /// Runs the jobs adopted so far, then the actions they made (their calls folded into this
    /// step). Jobs adopted meanwhile (a task that yields, a call that failed at once) get a block
    /// of their own, so a task that keeps resuming itself cannot hold the step.
    private func runAdoptedJobs() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
        let jobs = adoptedJobs
        adoptedJobs.removeAll(keepingCapacity: true)
        executor.run(jobs)
        while let action = session.nextAction() { perform(action) }
        guard !adoptedJobs.isEmpty else { return }
        let later = adoptedJobs
        adoptedJobs.removeAll(keepingCapacity: true)
        queue.async { [self] in
            adoptedJobs.append(contentsOf: later)
            execute()
        }
    }

    private func perform(_ action: SessionAction) {
        switch action {
        case .openTransport(let id, let url, let headers):
            currentTransport = id
            let timeout = session.configuration.connectTimeout
            transports[id] = transportFactory.open(url: url, headers: headers, connectTimeout: timeout, queue: queue) { [weak self] event in
                self?.transportEvent(event, from: id)
            }
            if !backloggedStreams.isEmpty { applyReadingPause() }
        case .sendText(let utf8):
            if let currentTransport, let transport = transports[currentTransport] {
                frameObserver?(.sent, String(decoding: utf8, as: UTF8.self))
                transport.send(utf8: utf8)
                if unflushed !== transport {
                    unflushed?.flush()
                    unflushed = transport
                }
            }
        case .sendBinary(let bytes):
            if let currentTransport, let transport = transports[currentTransport] {
                transport.send(binary: bytes)
                if unflushed !== transport {
                    unflushed?.flush()
                    unflushed = transport
                }
            }
        case .closeTransport(let id, let code, let reason):
            transports.removeValue(forKey: id)?.close(code: code, reason: reason)
            if currentTransport == id { currentTransport = nil }
        case .complete(let id, let result):
            if logSink.isOn, case .failure(let error) = result, error.code == .outboundQueueFull {
                sessionLog.outboundQueueFull(error)
            }
            completions.removeValue(for: id.rawValue)?(result)
        case .completeConnect(let id, let result):
            connectCompletions.removeValue(forKey: id)?(result)
        case .saveToken(let name, let token):
            do { try tokenStore.saveToken(name: name, token: token) } catch {
                broadcast(.error(.tokenStore("saving \(name): \(error)")))
            }
        case .removeToken(let name):
            do { try tokenStore.removeToken(name: name) } catch {
                broadcast(.error(.tokenStore("removing \(name): \(error)")))
            }
        case .event(let event):
            if case .request(let request) = event {
                let handled = router.handleRequest(request.event, request.data, request.id)
                if !handled {
                    let error = RemoteError(
                        name: "UnhandledRequestError",
                        message: "The client has no handler for procedure \(request.event)")
                    try? session.respond(to: request.id, with: .failure(error), now: now)
                }
            }
            watchTokenExpiry(event)
            broadcast(event)
        }
    }

    /// Arms a wall-clock timer that reports `authTokenExpiring` shortly before the token's `exp`.
    private func watchTokenExpiry(_ event: SessionEvent) {
        switch event {
        case .authenticated(let authentication):
            expiryTimer?.cancel()
            expiryTimer = nil
            let signedToken = authentication.signedToken
            guard let expiry = AuthStatus.expiry(of: authentication.token) else { return }
            let warning = Double(session.configuration.tokenExpiryWarning.wholeMilliseconds) / 1000
            let fireAt = expiry.timeIntervalSince1970 - warning
            let delay = max(0, fireAt - Date().timeIntervalSince1970)
            guard delay < Double(Int32.max) else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(wallDeadline: .now() + delay)
            source.setEventHandler { [weak self] in
                guard let self, self.session.auth.signedToken == signedToken else { return }
                self.broadcast(.authTokenExpiring(.init(signedToken: signedToken, expiresAt: expiry)))
            }
            expiryTimer = source
            source.resume()
        case .deauthenticated, .authTokenRemoved:
            expiryTimer?.cancel()
            expiryTimer = nil
        default:
            break
        }
    }

    private func broadcast(_ event: SessionEvent) {
        if logSink.isOn { sessionLog.record(event) }
        router.route(event)
    }

    private func transportEvent(_ event: SessionTransportEvent, from id: TransportID) {
        if case .endOfRead = event {
            guard readInProgress else { return }
            readInProgress = false
            return execute()
        }
        let now = self.now
        if adoptsJobs, !readInProgress, transports[id]?.reportsEndOfReads == true { readInProgress = true }
        switch event {
        case .endOfRead: break
        case .opened: session.transportOpened(id, now: now)
        case .text(let text):
            if id == currentTransport { frameObserver?(.received, text) }
            session.transportReceived(text: text, from: id, now: now)
        case .binary(let bytes): session.transportReceived(binary: bytes, from: id, now: now)
        case .closed(let code, let reason, let error):
            transports.removeValue(forKey: id)
            if currentTransport == id { currentTransport = nil }
            session.transportClosed(id, code: code, reason: reason, error: error, now: now)
        }
        execute()
    }

    /// The session's next deadline, read in place: its getter called on the stored property
    /// copies the whole session (a retain and a release of each reference it holds) at every step.
    private static func nextDeadline(of session: inout ClientSession) -> MonotonicInstant? {
        session.nextDeadline
    }

    /// Keeps one timer source armed for the session's next deadline. A deadline that moves
    /// later (the earliest call was answered) leaves the timer as it is: it fires early, finds
    /// nothing due and is armed again then. So answers cost no timer work; only a deadline that
    /// moves earlier re-schedules the source.
    private func rearmTimer() {
        guard let deadline = Self.nextDeadline(of: &session) else { return }
        if let armed = armedDeadline, armed <= deadline { return }
        armedDeadline = deadline
        // One millisecond late rather than early, so the deadline has surely passed.
        let fireAt = MonotonicInstant(nanoseconds: deadline.nanoseconds &+ 1_000_000)
        if timer == nil {
            timer = QueueTimer(queue: queue, leeway: .milliseconds(5)) { [weak self] in
                guard let self else { return }
                self.armedDeadline = nil
                self.session.timeElapsed(now: self.now)
                self.execute()
            }
        }
        timer?.schedule(at: fireAt)
    }

}
