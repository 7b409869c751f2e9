/// A client `#subscribe` invoke, shown to the subscribe authorization hook.
public struct BrokerSubscribeRequest: Sendable {
    /// The subscribing socket.
    public var socket: BrokerSocketInfo
    /// The channel name (after any client-side prefix).
    public var channel: String
    /// The optional `data` the client attached to the subscription.
    public var data: JSONValue?
    /// Whether the client marked the channel `waitForAuth` (informational; the server does not
    /// enforce it).
    public var waitForAuth: Bool
}

/// A client `#publish`, shown to the publish authorization hook.
public struct BrokerPublishRequest: Sendable {
    /// The publishing socket.
    public var socket: BrokerSocketInfo
    /// The channel name.
    public var channel: String
    /// The message; `nil` when the client sent none.
    public var data: JSONValue?
}

/// A client `#handshake`, shown to the handshake hook before it is answered.
public struct BrokerHandshakeRequest: Sendable {
    /// The connecting socket (not yet authenticated: the token is verified after the hook allows).
    public var socket: BrokerSocketInfo
    /// The handshake's `data` (`{"authToken": …}` from the SocketCluster client).
    public var data: JSONValue?
}

/// Thrown by the `authorizeHandshake` hook to reject a connection with a close code and reason
/// (socketcluster-server's handshake middleware `block` with a `statusCode`). The client's
/// `#handshake` is answered with an error carrying `reason`, then the connection is closed.
/// Any other error thrown by the hook closes with 4008 and the error's description.
public struct BrokerHandshakeRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The WebSocket close code (4008, "Server rejected handshake from client", by default).
    public var code: SocketClusterCloseCode
    /// The close reason (at most 123 UTF-8 bytes are sent).
    public var reason: String

    /// A rejection closing with `code` and `reason`.
    public init(code: SocketClusterCloseCode = BrokerOptions.handshakeRejectedCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The rejection in words, with its code.
    public var description: String { "Handshake rejected (\(code))\(reason.isEmpty ? "" : ": \(reason)")" }
}

/// The application's authorization decisions (socketcluster-server's inbound middleware),
/// kept by the engine and run on the serial context between two core inputs. Throwing rejects:
/// the client's invoke is answered with the thrown error (`RemoteError` keeps its name, message
/// and fields).
struct BrokerHooks: Sendable {
    var authorizeSubscribe: (@Sendable (BrokerSubscribeRequest) throws -> Void)?
    var authorizePublish: (@Sendable (BrokerPublishRequest) throws -> Void)?
    var authorizeHandshake: (@Sendable (BrokerHandshakeRequest) throws -> Void)?
}

/// A subscribe or publish the core holds until the application decides on it
/// (`BrokerCore.authorizationDecided`).
package enum BrokerAuthorizationRequest: Sendable {
    case subscribe(BrokerSubscribeRequest)
    case publish(BrokerPublishRequest)
    case handshake(BrokerHandshakeRequest)
}
