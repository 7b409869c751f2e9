/// Names of the events SocketCluster reserves for itself (Protocol.md §4–§9).
public enum BuiltInEvent {
    /// Client → server invoke opening the session; `data` is `{"authToken": String|null}`.
    public static let handshake = "#handshake"
    /// Publish to a channel: client → server `{channel, data}` (transmit or invoke), server → client push.
    public static let publish = "#publish"
    /// Client → server invoke `{channel, waitForAuth?, data?}`.
    public static let subscribe = "#subscribe"
    /// Client → server transmit whose `data` is the bare channel name.
    public static let unsubscribe = "#unsubscribe"
    /// Server → client push `{channel, message?}`: the server dropped a subscription.
    public static let kickOut = "#kickOut"
    /// Server → client `{token}`: store this signed token.
    public static let setAuthToken = "#setAuthToken"
    /// Either direction, no data: forget the token.
    public static let removeAuthToken = "#removeAuthToken"
    /// Client → server invoke whose `data` is the signed token string.
    public static let authenticate = "#authenticate"
}
