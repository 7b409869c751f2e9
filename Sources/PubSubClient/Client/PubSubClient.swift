import Dispatch
import Foundation
import WireKit

/// The SocketCluster client with async/await: `connect`, `invoke`, `transmit`, channels as
/// `AsyncStream`s, receivers, procedures and an event stream. Thread-safe: everything runs on
/// one serial queue around the sans-I/O session core (the same core `ScClient` runs on).
public final class PubSubClient: Sendable {
    let core: ClientCore
    /// Every item this client's dropping streams dropped.
    let drops = StreamDropCounter()
    var driver: SessionDriver { core.driver }
    var router: EventRouter { core.router }

    init(configuration: SessionConfiguration, tokenStore: any TokenStore, transportFactory: any SessionTransportFactory) {
        core = ClientCore(
            configuration: configuration, tokenStore: tokenStore, transportFactory: transportFactory,
            label: "PubSubClient")
    }

    // MARK: State

    /// Connection state.
    public var state: ConnectionState { core.state }
    /// Whether the handshake completed and the connection is open.
    public var isConnected: Bool { state == .open }
    /// Server-assigned socket id while open.
    public var id: String? { core.socketID }
    /// The handshake response (id, pingTimeout, isAuthenticated, authError) while open.
    public var handshake: HandshakeInfo? { core.handshake }
    /// Authentication state, signed token and decoded payload.
    public var auth: AuthStatus { core.auth }
    /// Subscribed channels (plus pending ones when `includePending`).
    public func subscriptions(includePending: Bool = false) -> [String] { core.subscriptions(includePending: includePending) }
    /// The state of one channel.
    public func channelState(_ channel: String) -> ChannelState { core.channelState(channel) }
    /// Items dropped so far, over all of this client's streams, by a dropping `bufferingPolicy`
    /// (`.bufferingNewest(n)` or `.bufferingOldest(n)`). Always 0 with the default policy, which
    /// never drops.
    public var droppedStreamItems: Int { drops.value }

    /// An executor that runs tasks on this client's own queue, where its socket is read.
    ///
    /// A task that prefers it — `withTaskExecutorPreference(client.executor) { ... }` or
    /// `Task(executorPreference: client.executor) { ... }` — resumes from `invoke`, `publishAck`,
    /// `subscribe` and `for await` over the client's streams on the thread that read the answer,
    /// in the same turn, and what it sends then leaves in that turn's one write: no hand-off to
    /// Swift concurrency's global executor and back for each call or stream element. Use it for
    /// tasks that talk mostly to this client (a request loop, a channel consumer).
    ///
    /// The task's code then runs on the client's queue, which on Linux is shared with other
    /// connections of the process (one queue per core): while it runs, those sockets are not
    /// read. Keep such tasks short between suspensions; hand blocking or long work to other
    /// tasks. Code isolated to an actor (the main actor, for example) still runs on that actor.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    public var executor: any TaskExecutor { driver.executor }

    // MARK: Connection

    /// Connects and waits for the handshake. Returns at once if already open. If the attempt
    /// ends first (a reconnect may follow), throws a ``PubSubError`` with code `.transport` when
    /// the WebSocket itself failed (refused, unknown host, HTTP status, TLS; its `transport` says
    /// which, and `webSocketError` is WireKit's typed reason), else `.connectionFailed` with the
    /// close code and reason (the server closed it, or the handshake timed out). Cancelling the
    /// waiting task throws `.cancelled` (event `connect`) at once and leaves the attempt running
    /// (`disconnect()` stops it).
    @discardableResult
    public func connect() async throws -> HandshakeInfo {
        let waiter = ConnectWaiter()
        let driver = self.driver
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // `skip` runs on the driver queue, so a cancellation cannot slip in between.
                core.connect(
                    skip: {
                        waiter.continuation = continuation
                        guard waiter.isCancelled else { return false }
                        waiter.finish(.failure(PubSubError.cancelled(event: "connect")))
                        return true
                    }, completion: { result in waiter.finish(result.mapError { $0 }) })
            }
        } onCancel: {
            driver.queue.async {
                waiter.isCancelled = true
                waiter.finish(.failure(PubSubError.cancelled(event: "connect")))
            }
        }
    }

    /// Closes with `code` and `reason` (sent to the server) and stops reconnecting.
    public func disconnect(code: SocketClusterCloseCode = 1000, reason: String = "") { core.disconnect(code: code, reason: reason) }

    /// Closes like `disconnect(code:reason:)`, then waits until the WebSocket closing handshake
    /// finished or timed out (`WebSocketOptions.closeTimeout`, default 5 s), so a process may
    /// exit right after without the server seeing 1006. Returns how the WebSocket ended; nil
    /// when no connection was open or opening.
    @discardableResult
    public func close(code: SocketClusterCloseCode = 1000, reason: String = "") async -> WebSocketCloseInfo? {
        await core.close(code: code, reason: reason)
    }

    /// Closes (if needed) and connects again at once.
    public func reconnect(code: SocketClusterCloseCode = 1000, reason: String = "") { core.reconnect(code: code, reason: reason) }

    // MARK: Events and RPC

    /// Sends an event with no reply (`receiver` on the server). Queued while not connected.
    public func transmit(_ event: String, _ data: JSONValue? = nil, ackTimeout: Duration? = nil) throws(PubSubError) {
        try core.transmit(event, data, ackTimeout: ackTimeout)
    }

    /// Sends an `Encodable` value as an event with no reply.
    public func transmit(_ event: String, encoding value: some Encodable) throws(PubSubError) {
        try transmit(event, try Self.encode(value))
    }

    /// Calls a server procedure and returns its data (nil when the answer has none). Throws
    /// `.remote` (the server's error), `.timeout` or `.badConnection`.
    public func invoke(_ event: String, _ data: JSONValue? = nil, ackTimeout: Duration? = nil) async throws -> JSONValue? {
        try await call { session, now in session.invoke(event, data: data, ackTimeout: ackTimeout, now: now) }
    }

    /// Calls a server procedure with an `Encodable` request and decodes the answer as `R`.
    public func invoke<R: Decodable>(
        _ event: String, _ request: some Encodable, as type: R.Type,
        ackTimeout: Duration? = nil
    ) async throws -> R {
        let answer = try await invoke(event, try Self.encode(request), ackTimeout: ackTimeout)
        do { return try (answer ?? .null).decode(type) } catch { throw PubSubError.coding("\(error)") }
    }

    /// Server transmits of `event`, in order. Ends when the iterating task is cancelled.
    /// By default (`.unbounded`) nothing is dropped and the stream is flow-controlled: while more
    /// than `StreamFlowControl.highWaterMark` (256) items wait unread, the client stops reading
    /// its socket (so the server is pushed back, and every call's answer waits too) until 64 are
    /// left. A dropping policy (`.bufferingNewest(n)`) keeps reading and drops instead; each drop
    /// is counted in `droppedStreamItems` and reported to `onDrop` (called on the client's queue
    /// with this stream's drops so far; keep it short).
    public func receiver(
        _ event: String,
        bufferingPolicy: AsyncStream<JSONValue?>.Continuation.BufferingPolicy = .unbounded,
        onDrop: (@Sendable (_ droppedSoFar: Int) -> Void)? = nil
    ) -> AsyncStream<JSONValue?> {
        flowControlledStream(bufferingPolicy, onDrop: onDrop) { router, sink in router.addReceiver(event) { sink.yield($0) } }
    }

    /// Server invokes of `event`; answer each request exactly once. While no stream is
    /// registered for an event, its requests get an `UnhandledRequestError` reply. Flow-controlled
    /// like `receiver` by default (more than 256 requests unread pause reading the socket); a
    /// request a dropping policy drops is answered with an `UnhandledRequestError`, counted in
    /// `droppedStreamItems` and reported to `onDrop`.
    public func procedure(
        _ event: String,
        bufferingPolicy: AsyncStream<ProcedureRequest>.Continuation.BufferingPolicy = .unbounded,
        onDrop: (@Sendable (_ droppedSoFar: Int) -> Void)? = nil
    )
        -> AsyncStream<ProcedureRequest>
    {
        let driver = self.driver
        return flowControlledStream(bufferingPolicy, onDrop: onDrop) { router, sink in
            router.addProcedure(event) { [weak driver] name, data, id in
                guard let driver else { return }
                sink.yield(ProcedureRequest(event: name, data: data, id: id, driver: driver))
            }
        }
    }

    /// Every session event (connection, auth, channels, errors, raw frames), from now on.
    /// Flow-controlled like `receiver` by default: a stream more than 256 events behind pauses
    /// reading the socket (so keep iterating it, or cancel its task); a dropping policy drops
    /// instead, counted in `droppedStreamItems` and reported to `onDrop`.
    public func events(
        bufferingPolicy: AsyncStream<SessionEvent>.Continuation.BufferingPolicy = .unbounded,
        onDrop: (@Sendable (_ droppedSoFar: Int) -> Void)? = nil
    )
        -> AsyncStream<SessionEvent>
    {
        flowControlledStream(bufferingPolicy, onDrop: onDrop) { router, sink in router.addEventListener { sink.yield($0) } }
    }

    // MARK: Channels

    /// Subscribes (if not already) and returns the channel's publications. Cancelling the task
    /// iterating the stream stops delivery to it; the subscription stays until `unsubscribe`.
    /// By default (`.unbounded`) nothing is dropped and the stream is flow-controlled like
    /// `receiver`'s: a consumer more than 256 publications behind pauses reading the socket. A
    /// dropping policy is the explicit alternative, e.g. `.bufferingNewest(1)` for a channel
    /// carrying the latest state; its drops are counted in `droppedStreamItems` and reported to
    /// `onDrop` (on the client's queue, with this stream's drops so far).
    public func channel(
        _ name: String, options: SubscriptionOptions = SubscriptionOptions(),
        bufferingPolicy: AsyncStream<JSONValue?>.Continuation.BufferingPolicy = .unbounded,
        onDrop: (@Sendable (_ droppedSoFar: Int) -> Void)? = nil
    )
        -> AsyncStream<JSONValue?>
    {
        let result = flowControlledStream(bufferingPolicy, onDrop: onDrop) { router, sink in
            router.addChannelConsumer(name, yield: { sink.yield($0) }, finish: { sink.finish() })
        }
        core.subscribe(name, options: options, onlyIfUnsubscribed: true)
        return result
    }

    /// Subscribes and waits for the server's confirmation, at most `ackTimeout`: a channel that
    /// cannot be confirmed by then (`waitForAuth` while unauthenticated, a closed client) throws
    /// ``PubSubError/Code/timeout`` and stays pending, subscribed once it can be.
    public func subscribe(_ channel: String, options: SubscriptionOptions = SubscriptionOptions()) async throws {
        _ = try await call { session, now in session.subscribeWithAck(channel, options: options, now: now) }
    }

    /// Unsubscribes (a `#unsubscribe` transmit) and ends the channel's streams.
    public func unsubscribe(_ channel: String) {
        let router = self.router
        core.unsubscribe(channel)
        driver.queue.async { router.finishChannelConsumers(channel) }
    }

    /// Unsubscribes with the server's acknowledgement.
    public func unsubscribeAck(_ channel: String) async throws {
        let router = self.router
        driver.queue.async { router.finishChannelConsumers(channel) }
        _ = try await call { session, now in session.unsubscribeWithAck(channel, now: now) }
    }

    /// Publishes without acknowledgement.
    public func publish(_ channel: String, _ data: JSONValue?) throws(PubSubError) { try core.publish(channel, data) }

    /// Publishes an `Encodable` value without acknowledgement.
    public func publish(_ channel: String, encoding value: some Encodable) throws(PubSubError) {
        try publish(channel, try Self.encode(value))
    }

    /// Publishes an `Encodable` value and waits until the server accepted the publication.
    public func publishAck(_ channel: String, encoding value: some Encodable, ackTimeout: Duration? = nil) async throws {
        try await publishAck(channel, try Self.encode(value), ackTimeout: ackTimeout)
    }

    /// Publishes and waits until the server accepted the publication.
    public func publishAck(_ channel: String, _ data: JSONValue?, ackTimeout: Duration? = nil) async throws {
        _ = try await call { session, now in session.publishWithAck(channel, data: data, ackTimeout: ackTimeout, now: now) }
    }

    // MARK: Auth

    /// Authenticates with a signed token (`#authenticate`).
    public func authenticate(_ signedToken: String, ackTimeout: Duration? = nil) async throws -> AuthenticationResult {
        AuthenticationResult(try await call { session, now in session.authenticate(signedToken, ackTimeout: ackTimeout, now: now) })
    }

    /// Stores `signedToken` in the token store (nil removes it) for the next handshake; the
    /// current connection is not re-authenticated (`authenticate(_:)` does that).
    public func setAuthToken(_ signedToken: String?) { core.setAuthToken(signedToken) }

    /// The token the next handshake sends (the token store's copy), nil when there is none.
    public var authTokenForNextHandshake: String? { core.tokenForNextHandshake }

    /// Removes the token here and on the server.
    public func deauthenticate() { core.deauthenticate() }

    // MARK: Batching

    /// Collects outgoing packets until `flushBatch()` / `cancelBatch()`.
    public func startBatch() { core.startBatch() }
    /// Sends the collected packets as one array frame.
    public func flushBatch() { core.flushBatch() }
    /// Discards the collected packets; their invokes fail with `batchCancelled`.
    public func cancelBatch() { core.cancelBatch() }

    // MARK: Internals

    /// Runs a call to completion; cancelling the calling task cancels the call.
    private func call(_ start: @escaping @Sendable (inout ClientSession, MonotonicInstant) -> CallID) async throws -> JSONValue? {
        let box = CallCancellation()
        let driver = self.driver
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                driver.submitCall(
                    { session, now in
                        let id = start(&session, now)
                        box.id = id
                        if box.isCancelled { session.cancel(id, now: now) }
                        return id
                    }, completion: { result in continuation.resume(with: result.mapError { $0 as any Error }) })
            }
        } onCancel: {
            driver.queue.async {
                box.isCancelled = true
                if let id = box.id { driver.run { session, now in session.cancel(id, now: now) } }
            }
        }
    }

    /// A stream fed by a router registration. With `.unbounded`, a `StreamBuffer` counts the
    /// items waiting unread and the driver pauses reading while more than the high-water mark
    /// wait; with a dropping policy, an `AsyncStream` buffers and the drops are counted.
    private func flowControlledStream<T>(
        _ policy: AsyncStream<T>.Continuation.BufferingPolicy,
        onDrop: (@Sendable (Int) -> Void)?,
        _ register: @escaping (EventRouter, FlowControlledSink<T>) -> UInt64
    ) -> AsyncStream<T> {
        guard case .unbounded = policy else {
            let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: policy)
            let sink = FlowControlledSink(continuation, drops: StreamDropCounter(total: drops, onDrop: onDrop))
            let token = driver.register { router in register(router, sink) }
            // Weak: a stream kept after the client is gone must not keep its driver.
            continuation.onTermination = { [weak driver] _ in driver?.unregister(token) }
            return stream
        }
        let buffer = StreamBuffer<T>(driver: driver)
        let sink = FlowControlledSink(buffer)
        // The token is set on the queue, before the registration can yield anything.
        _ = driver.register { router in
            let token = register(router, sink)
            buffer.token = token
            return token
        }
        let reader = StreamBufferReader(buffer)
        return AsyncStream(unfolding: { await reader.next() }, onCancel: { reader.buffer.cancel() })
    }

    static func encode(_ value: some Encodable) throws(PubSubError) -> JSONValue {
        do { return try JSONValue(encoding: value) } catch { throw .coding("\(error)") }
    }
}

/// Resumes `connect()` exactly once. `@unchecked Sendable`: its fields are only touched on the
/// driver queue.
private final class ConnectWaiter: @unchecked Sendable {
    var continuation: CheckedContinuation<HandshakeInfo, any Error>?
    var isCancelled = false

    func finish(_ result: Result<HandshakeInfo, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }
}

/// Meets a call's start and its task's cancellation, whichever comes first. `@unchecked
/// Sendable`: both fields are only touched on the driver's queue (the call starts there, and the
/// cancellation handler goes there), so no lock is needed.
private final class CallCancellation: @unchecked Sendable {
    var id: CallID?
    var isCancelled = false
}

/// The flow control of the client's streams (`channel`, `receiver`, `procedure`, `events`) with
/// the default policy.
public enum StreamFlowControl {
    /// Items waiting unread above which the client stops reading its socket.
    public static let highWaterMark = 256
    /// Items waiting unread at which reading resumes.
    public static let lowWaterMark = 64
}

/// Counts the callbacks waiting for the main queue (`SessionDriver`'s deliveries there) and tells
/// the driver when they fall behind or catch up, as `StreamBuffer` does for a stream. `@unchecked Sendable`: `unread` and `backlogged` are guarded by `lock`; `token` is
/// set once before the first item.
final class StreamBacklog: @unchecked Sendable {
    private let lock = NSLock()
    private var unread = 0
    private var backlogged = false
    private weak var driver: SessionDriver?
    var token: UInt64 = 0

    init(driver: SessionDriver) {
        self.driver = driver
    }

    /// `count` items yielded (on the session queue).
    func added(_ count: Int = 1) {
        let crossed = lock.withLock { () -> Bool in
            unread += count
            guard unread > StreamFlowControl.highWaterMark, !backlogged else { return false }
            backlogged = true
            return true
        }
        if crossed { driver?.setBacklogged(token, true) }
    }

    /// `count` items taken by the consumer (any thread).
    func taken(_ count: Int = 1) {
        let caughtUp = lock.withLock { () -> Bool in
            unread -= count
            guard backlogged, unread <= StreamFlowControl.lowWaterMark else { return false }
            backlogged = false
            return true
        }
        guard caughtUp, let driver else { return }
        let token = self.token
        driver.queue.async { [weak driver] in driver?.setBacklogged(token, false) }
    }
}

/// Where the router yields a stream's items: a `StreamBuffer` (flow-controlled), or an
/// `AsyncStream` under a dropping policy, whose drops are counted.
final class FlowControlledSink<T: Sendable>: Sendable {
    private let buffer: StreamBuffer<T>?
    private let continuation: AsyncStream<T>.Continuation?
    private let drops: StreamDropCounter?

    init(_ buffer: StreamBuffer<T>) {
        self.buffer = buffer
        continuation = nil
        drops = nil
    }

    init(_ continuation: AsyncStream<T>.Continuation, drops: StreamDropCounter) {
        buffer = nil
        self.continuation = continuation
        self.drops = drops
    }

    func yield(_ item: T) {
        if let buffer { return buffer.yield(item) }
        if case .dropped = continuation?.yield(item) { drops?.record() }
    }

    func finish() {
        buffer?.finish()
        continuation?.finish()
    }
}
