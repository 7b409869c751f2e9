import Foundation

/// Something the application is told about: connection, messages, channels, auth (socketcluster-client's emitted events).
///
/// Each case says what happened; a case that carries data carries one struct, so the data can
/// gain fields without breaking a `case .disconnected(let close)` pattern.
///
/// New cases may be added in a minor release; switch with `default:`.
///
/// ```swift
/// for await event in client.events() {
///     switch event {
///     case .disconnected(let close): print("closed", close.code, close.reason)
///     case .reconnectScheduled(let retry): print("retry #\(retry.attempt) in \(retry.delay)")
///     default: break
///     }
/// }
/// ```
public enum SessionEvent: Sendable, Equatable {
    /// The connection state changed.
    case stateChanged(StateChange)
    /// A connection attempt started.
    case connecting(ConnectAttempt)
    /// The handshake completed. Auth events and pending subscribes come before this one.
    case connected(HandshakeInfo)
    /// The connection closed before its handshake completed. ``Close/error`` says why the
    /// transport failed when it did (refused, unknown host, HTTP status of a rejected upgrade, TLS).
    case connectAbort(Close)
    /// The connection closed after its handshake completed.
    case disconnected(Close)
    /// Any close, after `connectAbort` or `disconnected`.
    case closed(Close)
    /// A reconnect was scheduled.
    case reconnectScheduled(ReconnectSchedule)
    /// Something failed that is not tied to one call (abnormal close, malformed packet, ...).
    case error(PubSubError)

    /// The server transmitted an event (no reply expected).
    case message(Message)
    /// The server invoked a procedure; it is answered exactly once (`PubSubClient.procedure(_:)`
    /// hands it out as a ``ProcedureRequest``).
    case request(Request)
    /// A frame that is not a packet.
    case raw(RawMessage)

    /// Data published to a channel the client is subscribed (or subscribing) to.
    case publication(Publication)
    /// A `#subscribe` for the channel was sent.
    case subscribeRequested(Subscription)
    /// The server confirmed the subscription.
    case subscribed(Subscription)
    /// The server refused the subscription.
    case subscribeFailed(SubscribeFailure)
    /// The channel stopped being subscribed (connection lost, unsubscribe, kick out).
    case unsubscribed(Unsubscription)
    /// A channel moved between pending / subscribed / unsubscribed.
    case channelStateChanged(ChannelStateChange)
    /// The server removed the subscription (`#kickOut`).
    case kickedOut(KickOut)

    /// The auth state changed (tokens only when becoming authenticated).
    case authStateChanged(AuthChange)
    /// A token was accepted: handshake, `#setAuthToken` (including renewals) or `authenticate`.
    case authenticated(Authentication)
    /// The client went from authenticated to unauthenticated.
    case deauthenticated(Deauthentication)
    /// The current token's `exp` is less than `SessionConfiguration.tokenExpiryWarning` away:
    /// re-authenticate now to stay authenticated. Reported by the client driver (it reads the
    /// wall clock; the session core does not).
    case authTokenExpiring(TokenExpiry)
    /// The stored token was deleted (by the server's `#removeAuthToken` or `deauthenticate()`).
    case authTokenRemoved(TokenRemoval)
}

extension SessionEvent {
    /// The connection state before and after a ``SessionEvent/stateChanged(_:)``.
    public struct StateChange: Sendable, Equatable {
        /// The state before.
        public let old: ConnectionState
        /// The state now.
        public let new: ConnectionState
    }

    /// A connection attempt, reported by ``SessionEvent/connecting(_:)``.
    public struct ConnectAttempt: Sendable, Equatable {
        /// Failed attempts since the last successful handshake (0 for the first attempt).
        public let attempt: Int
    }

    /// How a connection ended: ``SessionEvent/connectAbort(_:)``, ``SessionEvent/disconnected(_:)``
    /// and ``SessionEvent/closed(_:)``.
    public struct Close: Sendable, Equatable {
        /// The close code (sent by the server, or chosen by the client for a local close).
        public let code: SocketClusterCloseCode
        /// The close reason; socketcluster-client's text for the code when the peer sent none.
        public let reason: String
        /// Why the transport failed, when it did (refused, unknown host, HTTP status of a
        /// rejected upgrade, TLS); nil for a close frame or a local close.
        public let error: TransportFailure?

        init(code: SocketClusterCloseCode, reason: String, error: TransportFailure? = nil) {
            self.code = code
            self.reason = reason
            self.error = error
        }
    }

    /// A scheduled reconnect, reported by ``SessionEvent/reconnectScheduled(_:)``.
    public struct ReconnectSchedule: Sendable, Equatable {
        /// How long until the attempt starts (``SessionConfiguration/reconnectPolicy``).
        public let delay: Duration
        /// The number of the attempt that will start (1 for the first retry).
        public let attempt: Int
    }

    /// An event the server transmitted, reported by ``SessionEvent/message(_:)``.
    public struct Message: Sendable, Equatable {
        /// The event name.
        public let event: String
        /// The event's data.
        public let data: JSONValue?
    }

    /// A procedure call from the server, reported by ``SessionEvent/request(_:)``.
    public struct Request: Sendable, Equatable {
        /// The event (procedure) name.
        public let event: String
        /// The call's data.
        public let data: JSONValue?
        /// Identifies the call, so it is answered exactly once.
        public let id: ServerRequestID
    }

    /// Data published to a channel, reported by ``SessionEvent/publication(_:)``.
    public struct Publication: Sendable, Equatable {
        /// The channel name, without ``SessionConfiguration/channelPrefix``.
        public let channel: String
        /// The published data.
        public let data: JSONValue?
    }

    /// A subscription, reported by ``SessionEvent/subscribeRequested(_:)`` and ``SessionEvent/subscribed(_:)``.
    public struct Subscription: Sendable, Equatable {
        /// The channel name.
        public let channel: String
        /// The options it was subscribed with.
        public let options: SubscriptionOptions
    }

    /// A refused subscription, reported by ``SessionEvent/subscribeFailed(_:)``.
    public struct SubscribeFailure: Sendable, Equatable {
        /// The channel name.
        public let channel: String
        /// Why the server refused it.
        public let error: PubSubError
        /// True when the channel stays pending (a resubscribe after reconnect, or a
        /// `waitForAuth` channel while unauthenticated).
        public let willRetry: Bool
    }

    /// A channel that stopped being subscribed, reported by ``SessionEvent/unsubscribed(_:)``.
    public struct Unsubscription: Sendable, Equatable {
        /// The channel name.
        public let channel: String
    }

    /// A channel's state change, reported by ``SessionEvent/channelStateChanged(_:)``.
    public struct ChannelStateChange: Sendable, Equatable {
        /// The channel name.
        public let channel: String
        /// The state before.
        public let old: ChannelState
        /// The state now.
        public let new: ChannelState
    }

    /// A subscription the server removed, reported by ``SessionEvent/kickedOut(_:)``.
    public struct KickOut: Sendable, Equatable {
        /// The channel name.
        public let channel: String
        /// The server's message, if it sent one.
        public let message: String?
    }

    /// An auth state change, reported by ``SessionEvent/authStateChanged(_:)``.
    public struct AuthChange: Sendable, Equatable {
        /// The state before.
        public let old: AuthState
        /// The state now.
        public let new: AuthState
        /// The signed token, when becoming authenticated.
        public let signedToken: String?
        /// The token's decoded payload, when becoming authenticated.
        public let token: JSONValue?
        /// True when the handshake response changed it (its verdict is also in
        /// ``SessionEvent/connected(_:)``), false for a later change (`#setAuthToken`,
        /// `#removeAuthToken`, `authenticate`, `deauthenticate`).
        public let byHandshake: Bool

        init(old: AuthState, new: AuthState, signedToken: String?, token: JSONValue?, byHandshake: Bool = false) {
            self.old = old
            self.new = new
            self.signedToken = signedToken
            self.token = token
            self.byHandshake = byHandshake
        }
    }

    /// An accepted token, reported by ``SessionEvent/authenticated(_:)``.
    public struct Authentication: Sendable, Equatable {
        /// The signed JWT.
        public let signedToken: String
        /// Its payload, decoded without verifying the signature.
        public let token: JSONValue?
    }

    /// The token given up, reported by ``SessionEvent/deauthenticated(_:)``.
    public struct Deauthentication: Sendable, Equatable {
        /// The signed token the client had.
        public let oldSignedToken: String?
        /// Its decoded payload.
        public let oldToken: JSONValue?
    }

    /// A token about to expire, reported by ``SessionEvent/authTokenExpiring(_:)``.
    public struct TokenExpiry: Sendable, Equatable {
        /// The signed token.
        public let signedToken: String
        /// When it expires (its `exp` claim).
        public let expiresAt: Date
    }

    /// A deleted stored token, reported by ``SessionEvent/authTokenRemoved(_:)``.
    public struct TokenRemoval: Sendable, Equatable {
        /// The signed token that was stored, if any.
        public let oldSignedToken: String?
    }
}
