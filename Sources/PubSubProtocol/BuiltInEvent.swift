/// Names of the events SocketCluster reserves for itself (Protocol.md §4–§9).
package enum BuiltInEvent {
    /// Client → server invoke opening the session; `data` is `{"authToken": String|null}`.
    package static let handshake = "#handshake"
    /// Publish to a channel: client → server `{channel, data}` (transmit or invoke), server → client push.
    package static let publish = "#publish"
    /// Client → server invoke `{channel, waitForAuth?, data?}`.
    package static let subscribe = "#subscribe"
    /// Client → server transmit whose `data` is the bare channel name.
    package static let unsubscribe = "#unsubscribe"
    /// Server → client push `{channel, message?}`: the server dropped a subscription.
    package static let kickOut = "#kickOut"
    /// Server → client `{token}`: store this signed token.
    package static let setAuthToken = "#setAuthToken"
    /// Either direction, no data: forget the token.
    package static let removeAuthToken = "#removeAuthToken"
    /// Client → server invoke whose `data` is the signed token string.
    package static let authenticate = "#authenticate"
}
