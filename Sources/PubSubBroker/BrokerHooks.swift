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

/// The application's authorization decisions (socketcluster-server's inbound middleware),
/// kept by the engine and run on the serial context between two core inputs. Throwing rejects:
/// the client's invoke is answered with the thrown error (`RemoteError` keeps its name, message
/// and fields).
struct BrokerHooks: Sendable {
    var authorizeSubscribe: (@Sendable (BrokerSubscribeRequest) throws -> Void)?
    var authorizePublish: (@Sendable (BrokerPublishRequest) throws -> Void)?
}

/// A subscribe or publish the core holds until the application decides on it
/// (`BrokerCore.authorizationDecided`).
enum BrokerAuthorizationRequest: Sendable {
    case subscribe(BrokerSubscribeRequest)
    case publish(BrokerPublishRequest)
}
