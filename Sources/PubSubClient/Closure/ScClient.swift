import Dispatch
import WireKit

/// The closure API, with the method names of socketcluster-client-swift (`emit`, `emitAck`,
/// `on`, `onAck`, `subscribe`, `publish`, `onChannel`, `setBasicListener`, ...), on the same
/// session core as `PubSubClient`. Every callback runs on the queue given at creation, which
/// must be serial (callbacks come in order); the client's own queue targets it unless it is the
/// main queue, so callbacks run without a dispatch each. Thread-safe: calls may come from any
/// thread.
///
/// The closure shapes (``AckHandler``, ``MessageHandler``, the closures of `setBasicListener`,
/// `setAuthenticationListener` and `onAck`) are socketcluster-client-swift's and frozen by that
/// compatibility contract: they never gain arguments. New data comes in the values they pass
/// (``CloseInfo``, ``PubSubError``, ``ScResponder``) or in ``SessionEvent``.
public final class ScClient: Sendable {
    /// `(eventName, error, data)`: the outcome of an acknowledged call.
    ///
    /// Frozen: this shape is socketcluster-client-swift's and stays as it is, so code written for
    /// that client keeps compiling. Detail beyond it is in the ``PubSubError``.
    public typealias AckHandler = @Sendable (String, PubSubError?, JSONValue?) -> Void
    /// `(eventName, data)`: a server event or channel message.
    ///
    /// Frozen: this shape is socketcluster-client-swift's and stays as it is.
    public typealias MessageHandler = @Sendable (String, JSONValue?) -> Void

    let core: ClientCore
    var driver: SessionDriver { core.driver }
    var router: EventRouter { core.router }
    /// Where callbacks run.
    public let callbackQueue: DispatchQueue
    private let listeners = ScListeners()

    init(
        configuration: SessionConfiguration, tokenStore: any TokenStore, callbackQueue: DispatchQueue,
        transportFactory: any SessionTransportFactory
    ) {
        self.callbackQueue = callbackQueue
        core = ClientCore(
            configuration: configuration, tokenStore: tokenStore, transportFactory: transportFactory,
            label: "ScClient", callbackQueue: callbackQueue)
        let driver = core.driver
        let listeners = self.listeners
        _ = driver.register { router in
            router.addEventListener { [weak self, weak driver] event in
                // The frequent events concern only the catch-all listener: skip the rest, before
                // the weak references are loaded (slow reference-count operations).
                switch event {
                case .message, .publication, .raw, .request:
                    guard let any = listeners.any, let self, let driver else { return }
                    return driver.deliver { any(self, event) }
                default: break
                }
                guard let self, let driver else { return }
                // On the driver queue, so the handshake's events are seen in order.
                let authentication = listeners.authenticationChange(for: event)
                let lost = listeners.lostConnection(for: event)
                let basic = listeners.basic
                let auth = listeners.auth
                let any = listeners.any
                driver.deliver {
                    switch event {
                    case .connected: basic?.onConnect?(self)
                    case .connectAbort(let close):
                        basic?.onConnectError?(self, CloseInfo(close))
                    case .authenticated(let authentication): auth?.onSetAuthentication?(self, authentication.signedToken)
                    default: break
                    }
                    if let lost { basic?.onDisconnect?(self, lost) }
                    if let authentication { auth?.onAuthentication?(self, authentication) }
                    any?(self, event)
                }
            }
        }
    }

    // MARK: Connection

    /// Starts connecting; `setBasicListener`'s `onConnect` reports the handshake.
    public func connect() { core.connect { _ in } }

    /// Closes with `code` (default 1000) and `reason`, and stops reconnecting.
    public func disconnect(code: SocketClusterCloseCode = 1000, reason: String = "") { core.disconnect(code: code, reason: reason) }

    /// Closes like `disconnect(code:reason:)` and waits until the WebSocket closing handshake
    /// finished or timed out (`WebSocketOptions.closeTimeout`, default 5 s). Returns how the
    /// WebSocket ended; nil when no connection was open or opening.
    @discardableResult
    public func close(code: SocketClusterCloseCode = 1000, reason: String = "") async -> WebSocketCloseInfo? {
        await core.close(code: code, reason: reason)
    }

    /// Closes like `disconnect(code:reason:)`; `completion` runs on `callbackQueue` once the
    /// WebSocket closing handshake finished or timed out, with how it ended (nil when no
    /// connection was open or opening).
    public func disconnect(
        code: SocketClusterCloseCode = 1000, reason: String = "",
        completion: @escaping @Sendable (WebSocketCloseInfo?) -> Void
    ) {
        let core = self.core
        let queue = callbackQueue
        Task {
            let info = await core.close(code: code, reason: reason)
            queue.async { completion(info) }
        }
    }

    /// Closes (if needed) with `code` and `reason`, and connects again at once.
    public func reconnect(code: SocketClusterCloseCode = 1000, reason: String = "") { core.reconnect(code: code, reason: reason) }

    /// True once the SocketCluster handshake completed (not merely the WebSocket open).
    public func isConnected() -> Bool { core.state == .open }

    /// Connection state.
    public var state: ConnectionState { core.state }
    /// Server-assigned socket id while connected.
    public var id: String? { core.socketID }
    /// Authentication state and token.
    public var auth: AuthStatus { core.auth }
    /// The handshake response (id, pingTimeout, isAuthenticated, authError) while connected.
    public var handshake: HandshakeInfo? { core.handshake }
    /// The state of one channel.
    public func channelState(channelName: String) -> ChannelState { core.channelState(channelName) }

    /// Connection callbacks: handshake done, attempt failed before the handshake, connection lost
    /// after it (with the exact close code and reason).
    ///
    /// The closure shapes are frozen by the socketcluster-client-swift compatibility contract:
    /// what a close may tell later comes as new fields of ``CloseInfo``, never as new closure
    /// arguments.
    public func setBasicListener(
        onConnect: (@Sendable (ScClient) -> Void)?,
        onConnectError: (@Sendable (ScClient, CloseInfo) -> Void)?,
        onDisconnect: (@Sendable (ScClient, CloseInfo) -> Void)?
    ) {
        listeners.basic = ScListeners.Basic(onConnect: onConnect, onConnectError: onConnectError, onDisconnect: onDisconnect)
    }

    /// Auth callbacks: a token was set (handshake, `#setAuthToken`, `authenticate`); and
    /// `onAuthentication` after every handshake (with its `isAuthenticated`, after `onConnect`,
    /// as socketcluster-client-swift did) and whenever the authenticated flag changes later.
    public func setAuthenticationListener(
        onSetAuthentication: (@Sendable (ScClient, String?) -> Void)?,
        onAuthentication: (@Sendable (ScClient, Bool?) -> Void)?
    ) {
        listeners.auth = ScListeners.Auth(onSetAuthentication: onSetAuthentication, onAuthentication: onAuthentication)
    }

    /// Every session event, for what the other listeners do not cover (raw frames, errors,
    /// channel state changes, reconnect scheduling).
    public func setEventListener(_ listener: (@Sendable (ScClient, SessionEvent) -> Void)?) {
        listeners.any = listener
    }

    // MARK: Events

    /// Transmits an event (no `cid`, no reply). Returns the error if it could not be queued.
    @discardableResult
    public func emit(eventName: String, data: JSONValue? = nil) -> PubSubError? {
        do throws(PubSubError) {
            try core.transmit(eventName, data)
            return nil
        } catch {
            return error
        }
    }

    /// Invokes a procedure; `ack` gets `(eventName, error, data)` exactly once.
    public func emitAck(eventName: String, data: JSONValue? = nil, ackTimeout: Duration? = nil, ack: @escaping AckHandler) {
        call(eventName, ack) { session, now in session.invoke(eventName, data: data, ackTimeout: ackTimeout, now: now) }
    }

    /// Listens to server transmits of `eventName`. Several listeners may share an event.
    @discardableResult
    public func on(eventName: String, ack: @escaping MessageHandler) -> ListenerToken {
        let driver = self.driver
        // Decided once: an inline listener holds no reference to the driver, so a message costs
        // no weak load (a slow reference-count operation).
        let inline = driver.deliversInline
        let id = driver.register { router in
            router.addReceiver(eventName) { [weak driver] data in
                if inline { return ack(eventName, data) }
                driver?.deliver { ack(eventName, data) }
            }
        }
        return ListenerToken(id: id)
    }

    /// Handles server invokes of `eventName`; the handler gets a responder that answers once.
    /// Invokes with no handler get an `UnhandledRequestError` reply.
    ///
    /// The handler's shape `(eventName, data, responder)` is frozen by the
    /// socketcluster-client-swift compatibility contract; ``ScResponder`` can grow instead.
    @discardableResult
    public func onAck(eventName: String, ack: @escaping @Sendable (String, JSONValue?, ScResponder) -> Void) -> ListenerToken {
        let driver = self.driver
        let id = driver.register { router in
            router.addProcedure(eventName) { [weak driver] name, data, requestID in
                guard let driver else { return }
                let responder = ScResponder(request: ProcedureRequest(event: name, data: data, id: requestID, driver: driver))
                driver.deliver { ack(name, data, responder) }
            }
        }
        return ListenerToken(id: id)
    }

    /// Removes a listener added with `on`, `onAck` or `onChannel`.
    public func off(_ token: ListenerToken) {
        driver.unregister(token.id)
    }

    // MARK: Channels

    /// Subscribes (`#subscribe` invoke; retried after reconnects).
    public func subscribe(channelName: String, options: SubscriptionOptions = SubscriptionOptions()) {
        core.subscribe(channelName, options: options)
    }

    /// Subscribes; `ack` gets the server's verdict on this attempt, or a timeout error after
    /// `ackTimeout` when none came (the channel then stays pending).
    public func subscribeAck(channelName: String, options: SubscriptionOptions = SubscriptionOptions(), ack: @escaping AckHandler) {
        call(channelName, ack) { session, now in session.subscribeWithAck(channelName, options: options, now: now) }
    }

    /// Unsubscribes (`#unsubscribe` transmit with the bare name).
    public func unsubscribe(channelName: String) { core.unsubscribe(channelName) }

    /// Unsubscribes as an invoke, so `ack` gets the server's answer.
    public func unsubscribeAck(channelName: String, ack: @escaping AckHandler) {
        call(channelName, ack) { session, now in session.unsubscribeWithAck(channelName, now: now) }
    }

    /// Publishes without acknowledgement. Returns the error if it could not be queued.
    @discardableResult
    public func publish(channelName: String, data: JSONValue?) -> PubSubError? {
        do throws(PubSubError) {
            try core.publish(channelName, data)
            return nil
        } catch {
            return error
        }
    }

    /// Publishes; `ack` gets the server's answer.
    public func publishAck(channelName: String, data: JSONValue?, ackTimeout: Duration? = nil, ack: @escaping AckHandler) {
        call(channelName, ack) { session, now in
            session.publishWithAck(channelName, data: data, ackTimeout: ackTimeout, now: now)
        }
    }

    /// Listens to messages published on `channelName` (a namespace separate from events).
    @discardableResult
    public func onChannel(channelName: String, ack: @escaping MessageHandler) -> ListenerToken {
        let driver = self.driver
        // Decided once, as in `on(eventName:ack:)`: an inline consumer makes no weak load per
        // publication.
        let inline = driver.deliversInline
        let id = driver.register { router in
            router.addChannelConsumer(
                channelName,
                yield: { [weak driver] data in
                    if inline { return ack(channelName, data) }
                    driver?.deliver { ack(channelName, data) }
                }, finish: {})
        }
        return ListenerToken(id: id)
    }

    /// Subscribed channels (and pending ones when `includePending`).
    public func getSubscriptions(includePending: Bool = false) -> [String] { core.subscriptions(includePending: includePending) }

    // MARK: Auth and batching

    /// Authenticates with a signed token; `ack` gets `{isAuthenticated, authError}` or the error.
    public func authenticate(token: String, ack: AckHandler? = nil) {
        call("#authenticate", ack ?? { _, _, _ in }) { session, now in session.authenticate(token, now: now) }
    }

    /// Removes the token here and on the server.
    public func deauthenticate() { core.deauthenticate() }

    /// Stores `token` for the next handshake (socketcluster-client-swift's `setAuthToken`).
    public func setAuthToken(token: String?) { core.setAuthToken(token) }

    /// The client's token, as socketcluster-client-swift: the one the next handshake sends (set
    /// by `setAuthToken(token:)`, the server's `#setAuthToken` or `authenticate`), nil once
    /// removed. `auth.signedToken` is the token the current connection is authenticated with.
    public func getAuthToken() -> String? { core.tokenForNextHandshake }

    /// Collects outgoing packets until `flushBatch()` / `cancelBatch()`.
    public func startBatch() { core.startBatch() }
    /// Sends the collected packets as one array frame.
    public func flushBatch() { core.flushBatch() }
    /// Discards the collected packets.
    public func cancelBatch() { core.cancelBatch() }

    private func call(_ name: String, _ ack: @escaping AckHandler, _ start: (inout ClientSession, MonotonicInstant) -> CallID) {
        // Inline without wrapping the answer in one more closure when the queue allows; then the
        // completion holds no reference to the driver at all (an unowned one costs three
        // reference-count operations on the slow path per call).
        if driver.deliversInline {
            driver.call(start) { result in Self.answer(ack, name, result) }
            return
        }
        // The completion runs on the driver's queue, which holds the driver.
        driver.call(start) { [unowned driver] result in
            driver.deliver { Self.answer(ack, name, result) }
        }
    }

    private static func answer(_ ack: AckHandler, _ name: String, _ result: Result<JSONValue?, PubSubError>) {
        switch result {
        case .success(let data): ack(name, nil, data)
        case .failure(let error): ack(name, error, nil)
        }
    }
}

/// A close code and reason, exactly as received or sent, passed to `setBasicListener`'s
/// `onConnectError` and `onDisconnect`. The closure shapes of ``ScClient`` are frozen by the
/// socketcluster-client-swift compatibility contract, so what a close may tell later comes as new
/// fields here.
public struct CloseInfo: Sendable, Equatable {
    /// The close code (any value, 4000–4999 included).
    public var code: SocketClusterCloseCode
    /// The close reason, or the standard text when the close frame had none.
    public var reason: String
    /// Why the WebSocket failed, when it did (refused, unknown host, HTTP status of a rejected
    /// upgrade, TLS, a connection reset). Nil when the peer closed with a close frame. With the
    /// WireKit driver, its `webSocketError` is WireKit's full typed reason.
    public var error: TransportFailure?
    /// A code, reason and transport error.
    public init(code: SocketClusterCloseCode, reason: String, error: TransportFailure? = nil) {
        self.code = code
        self.reason = reason
        self.error = error
    }

    /// The close a session event reported.
    init(_ close: SessionEvent.Close) {
        self.init(code: close.code, reason: close.reason, error: close.error)
    }
}

/// Identifies a listener added to an `ScClient`, for `off(_:)`.
public struct ListenerToken: Sendable, Hashable {
    let id: UInt64
}

/// Answers one server invoke exactly once (later calls are ignored and return an error).
public struct ScResponder: Sendable {
    let request: ProcedureRequest

    /// Answers with `data`, or with `error` when it is non-nil.
    @discardableResult
    public func callAsFunction(_ error: RemoteError?, _ data: JSONValue?) -> PubSubError? {
        do throws(PubSubError) {
            if let error { try request.fail(error) } else { try request.respond(data) }
            return nil
        } catch {
            return error
        }
    }
}

/// The listeners of an `ScClient`. `@unchecked Sendable`: guarded by `lock`.
final class ScListeners: @unchecked Sendable {
    struct Basic {
        var onConnect: (@Sendable (ScClient) -> Void)?
        var onConnectError: (@Sendable (ScClient, CloseInfo) -> Void)?
        var onDisconnect: (@Sendable (ScClient, CloseInfo) -> Void)?
    }
    struct Auth {
        var onSetAuthentication: (@Sendable (ScClient, String?) -> Void)?
        var onAuthentication: (@Sendable (ScClient, Bool?) -> Void)?
    }

    private let lock = NSLock()
    private var _basic: Basic?
    private var _auth: Auth?
    private var _any: (@Sendable (ScClient, SessionEvent) -> Void)?

    var basic: Basic? {
        get { lock.withLock { _basic } }
        set { lock.withLock { _basic = newValue } }
    }
    var auth: Auth? {
        get { lock.withLock { _auth } }
        set { lock.withLock { _auth = newValue } }
    }
    /// What `onAuthentication` gets for `event`, if anything: the handshake's verdict once per
    /// handshake (the auth changes inside it are not reported separately), later changes as
    /// they happen.
    func authenticationChange(for event: SessionEvent) -> Bool? {
        switch event {
        case .connected(let info): return info.isAuthenticated
        case .authStateChanged(let change) where !change.byHandshake: return change.new == .authenticated
        default: return nil
        }
    }

    /// What `onDisconnect` gets for `event`, if anything.
    func lostConnection(for event: SessionEvent) -> CloseInfo? {
        guard case .disconnected(let close) = event else { return nil }
        return CloseInfo(close)
    }

    var any: (@Sendable (ScClient, SessionEvent) -> Void)? {
        get { lock.withLock { _any } }
        set { lock.withLock { _any = newValue } }
    }
}

import Foundation
