/// Something the application is told about: connection, messages, channels, auth (socketcluster-client's emitted events).
public enum SessionEvent: Sendable, Equatable {
    /// The connection state changed.
    case stateChanged(old: ConnectionState, new: ConnectionState)
    /// A connection attempt started (`attempt` counts failed attempts since the last success).
    case connecting(attempt: Int)
    /// The handshake completed. Auth events and pending subscribes come before this one.
    case connected(HandshakeInfo)
    /// The connection closed before its handshake completed. `error` says why the transport
    /// failed when it did (refused, unknown host, HTTP status of a rejected upgrade, TLS).
    case connectAbort(code: UInt16, reason: String, error: TransportFailure? = nil)
    /// The connection closed after its handshake completed; `error` as in `connectAbort`.
    case disconnected(code: UInt16, reason: String, error: TransportFailure? = nil)
    /// Any close, after `connectAbort` or `disconnected`; `error` as in `connectAbort`.
    case closed(code: UInt16, reason: String, error: TransportFailure? = nil)
    /// A reconnect was scheduled after `delay` milliseconds.
    case reconnectScheduled(delay: Int64, attempt: Int)
    /// Something failed that is not tied to one call (abnormal close, malformed packet, ...).
    case error(PubSubError)

    /// The server transmitted an event (no reply expected).
    case message(event: String, data: JSONValue?)
    /// The server invoked a procedure; answer it with `ClientSession.respond(to:with:)` exactly once.
    case request(event: String, data: JSONValue?, id: ServerRequestID)
    /// A frame that is not a packet.
    case raw(RawMessage)

    /// Data published to a channel the client is subscribed (or subscribing) to.
    case publication(channel: String, data: JSONValue?)
    /// A `#subscribe` for `channel` was sent.
    case subscribeRequested(channel: String, options: SubscriptionOptions)
    /// The server confirmed the subscription.
    case subscribed(channel: String, options: SubscriptionOptions)
    /// The server refused the subscription. `willRetry` is true when the channel stays pending
    /// (a resubscribe after reconnect, or a `waitForAuth` channel while unauthenticated).
    case subscribeFailed(channel: String, error: PubSubError, willRetry: Bool)
    /// The channel stopped being subscribed (connection lost, unsubscribe, kick out).
    case unsubscribed(channel: String)
    /// A channel moved between pending / subscribed / unsubscribed.
    case channelStateChanged(channel: String, old: ChannelState, new: ChannelState)
    /// The server removed the subscription (`#kickOut`).
    case kickedOut(channel: String, message: String?)

    /// The auth state changed (tokens only when becoming authenticated). `byHandshake` is true
    /// when the handshake response changed it (its verdict is also in `connected`), false for a
    /// later change (`#setAuthToken`, `#removeAuthToken`, `authenticate`, `deauthenticate`).
    case authStateChanged(old: AuthState, new: AuthState, signedToken: String?, token: JSONValue?, byHandshake: Bool = false)
    /// A token was accepted: handshake, `#setAuthToken` (including renewals) or `authenticate`.
    case authenticated(signedToken: String, token: JSONValue?)
    /// The client went from authenticated to unauthenticated.
    case deauthenticated(oldSignedToken: String?, oldToken: JSONValue?)
    /// The current token's `exp` is less than `SessionConfiguration.tokenExpiryWarning` away
    /// (`expiresAt` in seconds since 1970): re-authenticate now to stay authenticated. Reported by
    /// the client driver (it reads the wall clock; the session core does not).
    case authTokenExpiring(signedToken: String, expiresAt: Int64)
    /// The stored token was deleted (by the server's `#removeAuthToken` or `deauthenticate()`).
    case authTokenRemoved(oldSignedToken: String?)
}
