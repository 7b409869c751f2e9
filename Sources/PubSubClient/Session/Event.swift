/// Reserved SocketCluster event names the session handles itself (spec §5).
enum Event {
    static let handshake = "#handshake"
    static let publish = "#publish"
    static let subscribe = "#subscribe"
    static let unsubscribe = "#unsubscribe"
    static let kickOut = "#kickOut"
    static let setAuthToken = "#setAuthToken"
    static let removeAuthToken = "#removeAuthToken"
    static let authenticate = "#authenticate"
}
