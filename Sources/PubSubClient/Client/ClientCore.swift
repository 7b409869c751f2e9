import Dispatch
import WireKit

/// What both public faces are made of: the session driver (session, socket, timers and the
/// event router on one queue) and the operations the faces share, written once. `PubSubClient`
/// adds async/await on top, `ScClient` closures; neither has wiring of its own.
final class ClientCore: Sendable {
    let driver: SessionDriver

    /// `callbackQueue`: where a face's callbacks run (see `SessionDriver.init`); nil for the
    /// async face, whose continuations resume on the session queue.
    init(
        configuration: SessionConfiguration, tokenStore: any TokenStore, transportFactory: any SessionTransportFactory,
        label: String, callbackQueue: DispatchQueue? = nil
    ) {
        driver = SessionDriver(
            configuration: configuration, tokenStore: tokenStore, transportFactory: transportFactory,
            label: label, callbackQueue: callbackQueue)
    }

    deinit {
        // The face is gone: nobody can stop the reconnects any more.
        let driver = self.driver
        driver.queue.async { driver.run { session, now in session.disconnect(now: now) } }
    }

    var router: EventRouter { driver.router }

    // MARK: State

    var state: ConnectionState { driver.read(\.state) }
    var socketID: String? { driver.read(\.socketID) }
    var handshake: HandshakeInfo? { driver.read(\.handshake) }
    var auth: AuthStatus { driver.read(\.auth) }
    var tokenForNextHandshake: String? { driver.read(\.tokenForNextHandshake) }
    func channelState(_ channel: String) -> ChannelState { driver.read { $0.channelState(channel) } }
    func subscriptions(includePending: Bool) -> [String] { driver.read { $0.subscriptions(includePending: includePending) } }

    // MARK: Connection

    func connect(skip: () -> Bool = { false }, completion: @escaping SessionDriver.ConnectCompletion) {
        driver.connect(skip: skip, completion: completion)
    }

    func disconnect(code: SocketClusterCloseCode, reason: String) {
        driver.run { session, now in session.disconnect(code: code.rawValue, reason: reason, now: now) }
    }

    func close(code: SocketClusterCloseCode, reason: String) async -> WebSocketCloseInfo? {
        await driver.disconnectAndWait(code: code.rawValue, reason: reason)
    }

    func reconnect(code: SocketClusterCloseCode, reason: String) {
        driver.run { session, now in session.reconnect(code: code.rawValue, reason: reason, now: now) }
    }

    // MARK: Messages

    func transmit(_ event: String, _ data: JSONValue?, ackTimeout: Duration? = nil) throws(PubSubError) {
        try driver.submitTransmit { session, now in
            do throws(PubSubError) { try session.transmit(event, data: data, ackTimeout: ackTimeout, now: now) } catch { return error }
            return nil
        }
    }

    func publish(_ channel: String, _ data: JSONValue?) throws(PubSubError) {
        try driver.submitTransmit { session, now in
            do throws(PubSubError) { try session.publish(channel, data: data, now: now) } catch { return error }
            return nil
        }
    }

    func subscribe(_ channel: String, options: SubscriptionOptions, onlyIfUnsubscribed: Bool = false) {
        driver.run { session, now in
            if onlyIfUnsubscribed, session.channelState(channel) != .unsubscribed { return }
            session.subscribe(channel, options: options, now: now)
        }
    }

    func unsubscribe(_ channel: String) {
        driver.run { session, now in session.unsubscribe(channel, now: now) }
    }

    // MARK: Auth and batching

    func setAuthToken(_ signedToken: String?) {
        driver.run { session, now in session.setTokenForNextHandshake(signedToken, now: now) }
    }

    func deauthenticate() { driver.run { session, now in session.deauthenticate(now: now) } }
    func startBatch() { driver.run { session, _ in session.startBatch() } }
    func flushBatch() { driver.run { session, _ in session.flushBatch() } }
    func cancelBatch() { driver.run { session, _ in session.cancelBatch() } }
}
