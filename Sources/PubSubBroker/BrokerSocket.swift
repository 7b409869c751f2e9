/// A live handle on one connected socket. Cheap to copy; every call goes through the broker's
/// serial context, so calls made one after another reach the client in that order.
public struct BrokerSocket: Sendable, Hashable, CustomStringConvertible {
    /// The socket id the client received in its handshake response.
    public let id: String
    let connection: BrokerConnectionID
    let engine: BrokerEngine

    init(id: String, connection: BrokerConnectionID, engine: BrokerEngine) {
        self.id = id
        self.connection = connection
        self.engine = engine
    }

    /// Whether both handles are on the same connection of the same broker.
    public static func == (lhs: BrokerSocket, rhs: BrokerSocket) -> Bool {
        lhs.connection == rhs.connection && lhs.engine === rhs.engine
    }

    /// Hashes the connection the handle is on.
    public func hash(into hasher: inout Hasher) { hasher.combine(connection) }

    /// `BrokerSocket(` and the socket id.
    public var description: String { "BrokerSocket(\(id))" }

    /// The socket's current state; `nil` once it has closed.
    public var info: BrokerSocketInfo? { engine.read { core in core.socketInfo(connection) } }

    /// The verified auth token payload, when authenticated.
    public var authToken: [String: JSONValue]? { info?.authToken }

    /// Whether the socket holds a valid auth token.
    public var isAuthenticated: Bool { info?.isAuthenticated ?? false }

    /// The channels the socket is subscribed to, in subscription order.
    public var subscriptions: [String] { engine.read { core in core.subscriptions(of: connection) } }

    /// Sends a one-way event (`{"event":…,"data":…}`); dropped if the socket is not open.
    public func transmit(_ event: String, _ data: JSONValue? = nil) {
        engine.perform { core, _ in core.transmit(to: connection, event: event, data: data) }
    }

    /// Invokes `event` on the client and waits for its answer (at most `ackTimeout`, default the
    /// broker's). Throws `RemoteError` when the client answers with an error, else
    /// `PubSubBrokerError` (codes `.invokeTimedOut`, `.connectionClosed`, `.socketNotOpen`).
    public func invoke(_ event: String, _ data: JSONValue? = nil, ackTimeout: Duration? = nil) async throws -> JSONValue? {
        try await engine.invoke(connection: connection, socketID: id, event: event, data: data, ackTimeout: ackTimeout)
    }

    /// Signs `payload` as the socket's auth token (adding `iat` and, if absent, `exp`), pushes it
    /// with `#setAuthToken` and returns the signed JWT. Throws `.socketNotOpen` before the
    /// handshake or after close.
    @discardableResult
    public func setAuthToken(_ payload: [String: JSONValue]) throws -> String {
        let token: String? = engine.performReturning { core, now in
            core.setAuthToken(on: connection, payload: payload, wallClock: now.wallClock)
        }
        guard let token else { throw PubSubBrokerError.socketNotOpen(socketID: id) }
        return token
    }

    /// Drops the socket's token and pushes `#removeAuthToken`.
    public func deauthenticate() {
        engine.perform { core, _ in core.deauthenticate(connection) }
    }

    /// Unsubscribes the socket from `channel` (every channel when `nil`), pushing `#kickOut`
    /// with `message` for each.
    public func kickOut(channel: String? = nil, message: String? = nil) {
        engine.perform { core, _ in core.kickOut(connection, channel: channel, message: message) }
    }

    /// Closes the connection with a close frame carrying `code` (a literal such as `4000` works)
    /// and `reason`.
    public func disconnect(code: SocketClusterCloseCode = .normal, reason: String = "") {
        engine.perform { core, _ in core.disconnect(connection, code: code.rawValue, reason: reason) }
    }

    /// Holds every packet for this socket (answers included, pings excepted) until `flushBatch`.
    public func startBatch() {
        engine.perform { core, _ in core.startBatch(connection) }
    }

    /// Sends the held packets as one JSON-array frame and stops batching.
    public func flushBatch() {
        engine.perform { core, _ in core.flushBatch(connection) }
    }

    /// Discards the held packets and stops batching.
    public func cancelBatch() {
        engine.perform { core, _ in core.cancelBatch(connection) }
    }
}
