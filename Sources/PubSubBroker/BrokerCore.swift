import Foundation

/// The sans-I/O broker: every connection's `BrokerSocketSession`, the channel table and the
/// protocol rules of socketcluster-server 19 (strict handshake, pings, reserved events, auth,
/// pub/sub). Inputs are frames, closes, elapsed time and application commands, each with the
/// current time; outputs are `BrokerAction`s. It owns no socket, thread, timer or clock, and must
/// be used from one serial context.
struct BrokerCore {
    let options: BrokerOptions
    /// Whether client subscribes must be authorized by the application (`.authorize` actions).
    var authorizesSubscribe = false
    /// Whether client publishes must be authorized by the application.
    var authorizesPublish = false
    private(set) var sessions: [BrokerConnectionID: BrokerSocketSession] = [:]
    private var channels: [String: ChannelSubscribers] = [:]
    private var idGenerator = SocketIDGenerator()
    private let tokens: AuthTokenAuthority
    private var nextInvokeToken: UInt64 = 1

    init(options: BrokerOptions) {
        self.options = options
        self.tokens = AuthTokenAuthority(key: options.authKey, defaultExpiry: options.authDefaultExpiry)
    }

    // MARK: - Queries

    func socketInfo(_ connection: BrokerConnectionID) -> BrokerSocketInfo? {
        sessions[connection]?.info
    }

    func subscriptions(of connection: BrokerConnectionID) -> [String] {
        sessions[connection]?.subscriptions ?? []
    }

    /// Sockets that completed their handshake and are still open.
    var connectedSockets: [BrokerConnectionID] {
        sessions.values.filter { $0.phase == .open }.map(\.connection)
    }

    func subscriberCount(of channel: String) -> Int { channels[channel]?.count ?? 0 }

    // MARK: - Connection events

    /// A WebSocket connection was accepted: starts the ping, pong and handshake clocks.
    mutating func connectionOpened(_ connection: BrokerConnectionID, now: Date) -> [BrokerAction] {
        var session = BrokerSocketSession(connection: connection, id: idGenerator.next())
        if !options.pingTimeoutDisabled {
            session.nextPingAt = now.addingTimeInterval(options.pingInterval.timeInterval)
            session.pongDeadline = now.addingTimeInterval(options.pingTimeout.timeInterval)
        }
        session.handshakeDeadline = now.addingTimeInterval(options.handshakeTimeout.timeInterval)
        sessions[connection] = session
        var actions: [BrokerAction] = []
        reportDeadline(connection, into: &actions)
        return actions
    }

    /// The peer closed the connection (or it dropped): forget the socket.
    mutating func connectionClosed(_ connection: BrokerConnectionID, code: UInt16, reason: String) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        endSession(connection, code: code, reason: reason, sendClose: false, into: &actions)
        return actions
    }

    /// A text frame arrived.
    mutating func receivedText(_ text: String, from connection: BrokerConnectionID, now: Date) -> [BrokerAction] {
        guard sessions[connection] != nil else { return [] }
        var actions: [BrokerAction] = []
        if text == options.protocolVersion.pongText {
            receivedPong(connection, now: now, into: &actions)
        } else {
            receivedMessage(InboundItem.classify(text), from: connection, now: now, into: &actions)
        }
        reportDeadline(connection, into: &actions)
        return actions
    }

    /// A binary frame arrived: decoded as UTF-8 JSON like a text frame, but never a ping or pong.
    mutating func receivedBinary(_ bytes: [UInt8], from connection: BrokerConnectionID, now: Date) -> [BrokerAction] {
        guard sessions[connection] != nil else { return [] }
        var actions: [BrokerAction] = []
        receivedMessage(InboundItem.classify(utf8: bytes), from: connection, now: now, into: &actions)
        reportDeadline(connection, into: &actions)
        return actions
    }

    /// Time passed: runs whatever is due for `connection` (handshake timeout, ping, pong timeout,
    /// server invoke timeouts).
    mutating func timeAdvanced(for connection: BrokerConnectionID, now: Date) -> [BrokerAction] {
        guard var session = sessions[connection] else { return [] }
        var actions: [BrokerAction] = []
        if session.phase == .connecting, let deadline = session.handshakeDeadline, deadline <= now {
            endSession(connection, code: 4005, reason: "", sendClose: true, into: &actions)
            return actions
        }
        if let pingAt = session.nextPingAt, pingAt <= now {
            // Pings bypass batching, as the server's `send` does.
            actions.append(.send(connection, options.protocolVersion.pingText))
            var next = pingAt.addingTimeInterval(options.pingInterval.timeInterval)
            while next <= now { next = next.addingTimeInterval(options.pingInterval.timeInterval) }
            session.nextPingAt = next
        }
        if let deadline = session.pongDeadline, deadline <= now {
            sessions[connection] = session
            endSession(connection, code: 4001, reason: "", sendClose: true, into: &actions)
            return actions
        }
        let expired = session.pendingInvokes.filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
        for (cid, pending) in expired {
            session.pendingInvokes[cid] = nil
            actions.append(.completeInvoke(token: pending.token, result: .failure(.timedOut)))
        }
        sessions[connection] = session
        reportDeadline(connection, into: &actions)
        return actions
    }

    // MARK: - Application commands

    /// Answers the client invoke `cid` (a procedure's result).
    mutating func respond(
        to connection: BrokerConnectionID, cid: Int64, result: Result<JSONValue?, BrokerErrorPayload>
    ) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        switch result {
        case .success(let data): write(ServerFrames.response(rid: cid, data: data), to: connection, into: &actions)
        case .failure(let error): write(ServerFrames.errorResponse(rid: cid, error: error), to: connection, into: &actions)
        }
        return actions
    }

    /// Sends a transmit to an open socket (dropped when the socket is not open, as the server does).
    mutating func transmit(to connection: BrokerConnectionID, event: String, data: JSONValue?) -> [BrokerAction] {
        guard sessions[connection]?.phase == .open else { return [] }
        var actions: [BrokerAction] = []
        write(ServerFrames.transmit(event: event, data: data), to: connection, into: &actions)
        return actions
    }

    /// Sends a server invoke; its outcome arrives later as `.completeInvoke(token:…)`. Returns
    /// `nil` as token when the socket is not open.
    mutating func invoke(
        on connection: BrokerConnectionID, event: String, data: JSONValue?, ackTimeout: Duration?, now: Date
    ) -> (token: UInt64?, actions: [BrokerAction]) {
        guard var session = sessions[connection], session.phase == .open else { return (nil, []) }
        var actions: [BrokerAction] = []
        let cid = session.nextCallID
        session.nextCallID += 1
        let token = nextInvokeToken
        nextInvokeToken += 1
        let timeout = ackTimeout ?? options.ackTimeout
        session.pendingInvokes[cid] = .init(token: token, event: event, deadline: now.addingTimeInterval(timeout.timeInterval))
        session.write(ServerFrames.invoke(event: event, cid: cid, data: data), into: &actions)
        sessions[connection] = session
        reportDeadline(connection, into: &actions)
        return (token, actions)
    }

    /// Publishes to every socket subscribed to `channel`, in subscription order.
    mutating func publish(channel: String, data: JSONValue?) -> [BrokerAction] {
        guard var subscribers = channels[channel] else { return [] }
        let frame = ServerFrames.publish(channel: channel, data: data)
        let order = subscribers.inOrder()
        channels[channel] = subscribers
        var actions: [BrokerAction] = []
        actions.reserveCapacity(order.count)
        for connection in order where sessions[connection]?.phase == .open {
            write(frame, to: connection, into: &actions)
        }
        return actions
    }

    /// Issues a signed token to the socket and pushes it with `#setAuthToken`. Returns the signed
    /// token, or `nil` when the socket has not completed its handshake or is gone.
    mutating func setAuthToken(
        on connection: BrokerConnectionID, payload: [String: JSONValue], now: Date
    ) -> (token: String?, actions: [BrokerAction]) {
        guard var session = sessions[connection], session.phase == .open else { return (nil, []) }
        let signed = tokens.sign(payload, now: now)
        session.authToken = signed.payload
        session.signedAuthToken = signed.token
        var actions: [BrokerAction] = []
        session.write(
            ServerFrames.transmit(event: "#setAuthToken", data: .object(["token": .string(signed.token)])),
            into: &actions)
        sessions[connection] = session
        return (signed.token, actions)
    }

    /// Drops the socket's token and pushes `#removeAuthToken`.
    mutating func deauthenticate(_ connection: BrokerConnectionID) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        deauthenticate(connection, push: true, into: &actions)
        return actions
    }

    /// Pushes `#kickOut` for `channel` (or for every subscribed channel when `nil`) and
    /// unsubscribes the socket.
    mutating func kickOut(_ connection: BrokerConnectionID, channel: String?, message: String?) -> [BrokerAction] {
        guard let session = sessions[connection], session.phase == .open else { return [] }
        var actions: [BrokerAction] = []
        for name in channel.map({ [$0] }) ?? session.subscriptions {
            write(ServerFrames.kickOut(channel: name, message: message), to: connection, into: &actions)
            unsubscribe(connection, from: name)
        }
        return actions
    }

    /// Closes the connection with `code` and `reason`.
    mutating func disconnect(_ connection: BrokerConnectionID, code: UInt16, reason: String) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        endSession(connection, code: code, reason: reason, sendClose: true, into: &actions)
        return actions
    }

    /// Starts holding packets for this socket until `flushBatch` (pings are never held).
    mutating func startBatch(_ connection: BrokerConnectionID) {
        sessions[connection]?.batch = []
    }

    /// Sends the held packets as one JSON array frame and stops batching.
    mutating func flushBatch(_ connection: BrokerConnectionID) -> [BrokerAction] {
        guard let held = sessions[connection]?.batch else { return [] }
        sessions[connection]?.batch = nil
        guard !held.isEmpty else { return [] }
        return [.send(connection, ServerFrames.batch(held))]
    }

    /// Drops the held packets and stops batching.
    mutating func cancelBatch(_ connection: BrokerConnectionID) {
        sessions[connection]?.batch = nil
    }

    // MARK: - Inbound processing

    private mutating func receivedPong(_ connection: BrokerConnectionID, now: Date, into actions: inout [BrokerAction]) {
        guard var session = sessions[connection] else { return }
        if !options.pingTimeoutDisabled {
            session.pongDeadline = now.addingTimeInterval(options.pingTimeout.timeInterval)
        }
        sessions[connection] = session
        if session.phase == .connecting {
            endSession(connection, code: 4009, reason: "", sendClose: true, into: &actions)
            return
        }
        if session.authTokenExpired(at: now) {
            deauthenticate(connection, push: true, into: &actions)
        }
    }

    /// One inbound message: `nil` items means a frame that is not JSON (a raw message).
    private mutating func receivedMessage(
        _ items: [InboundItem]?, from connection: BrokerConnectionID, now: Date, into actions: inout [BrokerAction]
    ) {
        guard let items else {
            if sessions[connection]?.phase == .connecting {
                endSession(connection, code: 4009, reason: "", sendClose: true, into: &actions)
            }
            return
        }
        // Mutated in place (not copied out) so the array is never duplicated.
        sessions[connection]?.pendingItems.insert(contentsOf: items.reversed(), at: 0)
        drainPendingItems(connection, now: now, into: &actions)
    }

    /// Processes queued inbound packets in order until none is left, an authorization is
    /// awaited, or the session ends.
    private mutating func drainPendingItems(_ connection: BrokerConnectionID, now: Date, into actions: inout [BrokerAction]) {
        while sessions[connection]?.awaitingAuthorization == nil,
              let item = sessions[connection]?.pendingItems.popLast() {
            process(item, from: connection, now: now, into: &actions)
        }
    }

    /// The application decided on a held subscribe or publish (`rejection` is its error, `nil`
    /// to allow); the connection's remaining packets are processed afterwards.
    mutating func authorizationDecided(
        _ connection: BrokerConnectionID, rejection: BrokerErrorPayload?, now: Date
    ) -> [BrokerAction] {
        guard let pending = sessions[connection]?.awaitingAuthorization else { return [] }
        sessions[connection]?.awaitingAuthorization = nil
        var actions: [BrokerAction] = []
        if let rejection {
            answerError(connection, cid: pending.cid, rejection, into: &actions)
        } else {
            switch pending.request {
            case .subscribe(let request):
                completeSubscribe(connection, request: request, cid: pending.cid, into: &actions)
            case .publish(let request):
                completePublish(connection, request: request, cid: pending.cid, into: &actions)
            }
        }
        drainPendingItems(connection, now: now, into: &actions)
        reportDeadline(connection, into: &actions)
        return actions
    }

    private mutating func process(
        _ item: InboundItem, from connection: BrokerConnectionID, now: Date, into actions: inout [BrokerAction]
    ) {
        guard let session = sessions[connection] else { return }
        guard case .event(let event, let data, let cid) = item else {
            if session.phase == .connecting {
                endSession(connection, code: 4009, reason: "", sendClose: true, into: &actions)
                return
            }
            if case .response(let rid, let result) = item {
                resolveInvoke(connection, rid: rid, result: result, into: &actions)
            }
            return
        }
        if event == "#handshake" {
            guard let cid else {
                endSession(connection, code: 4008, reason: "", sendClose: true, into: &actions)
                return
            }
            processHandshake(connection, data: data, cid: cid, now: now, into: &actions)
            return
        }
        if session.phase == .connecting {
            endSession(connection, code: 4009, reason: "", sendClose: true, into: &actions)
            return
        }
        switch event {
        case "#authenticate":
            guard let cid else {
                endSession(connection, code: 4008, reason: "", sendClose: true, into: &actions)
                return
            }
            processAuthenticate(connection, data: data, cid: cid, now: now, into: &actions)
            return
        case "#removeAuthToken":
            deauthenticate(connection, push: false, into: &actions)
            deliver(connection, receiver: event, data: data, into: &actions)
            return
        default:
            break
        }
        if session.authTokenExpired(at: now) {
            deauthenticate(connection, push: true, into: &actions)
        }
        switch event {
        case "#publish":
            processPublish(connection, data: data, cid: cid, into: &actions)
        case "#subscribe":
            processSubscribe(connection, data: data, cid: cid, into: &actions)
        case "#unsubscribe":
            processUnsubscribe(connection, data: data, cid: cid, into: &actions)
        default:
            guard let info = sessions[connection]?.info else { return }
            if let cid {
                actions.append(.callProcedure(.init(connection: connection, socket: info, procedure: event, data: data, cid: cid)))
            } else {
                actions.append(.deliverMessage(.init(connection: connection, socket: info, receiver: event, data: data)))
            }
        }
    }

    private mutating func processHandshake(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: Int64, now: Date, into actions: inout [BrokerAction]
    ) {
        guard var session = sessions[connection] else { return }
        session.handshakeDeadline = nil
        // `data.authToken || null`: every falsy value counts as "no token".
        var token = data?.objectValue?["authToken"]
        if let value = token, value.isFalsy { token = nil }
        var authError: BrokerErrorPayload?
        var removeToken = false
        switch tokens.verify(token, now: now) {
        case .valid(let payload, let signed):
            session.authToken = payload
            session.signedAuthToken = signed
        case .rejected(let error, let isBadToken):
            session.authToken = nil
            session.signedAuthToken = nil
            if token != nil {
                authError = error
                removeToken = isBadToken
            }
        }
        session.phase = .open
        let firstHandshake = !session.hasConnected
        session.hasConnected = true
        session.write(
            ServerFrames.handshakeResponse(
                rid: cid, socketID: session.id, pingTimeout: options.pingTimeout.wholeMilliseconds,
                authError: authError, isAuthenticated: session.authToken != nil),
            into: &actions)
        if removeToken {
            session.write(ServerFrames.transmit(event: "#removeAuthToken", data: nil), into: &actions)
        }
        sessions[connection] = session
        if firstHandshake {
            actions.append(.socketConnected(connection, session.info))
        }
    }

    private mutating func processAuthenticate(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: Int64, now: Date, into actions: inout [BrokerAction]
    ) {
        guard var session = sessions[connection] else { return }
        switch tokens.verify(data, now: now) {
        case .valid(let payload, let signed):
            session.authToken = payload
            session.signedAuthToken = signed
            session.write(ServerFrames.authenticateResponse(rid: cid, isAuthenticated: true, authError: nil), into: &actions)
            sessions[connection] = session
        case .rejected(let error, let isBadToken):
            session.authToken = nil
            session.signedAuthToken = nil
            if isBadToken {
                session.write(ServerFrames.errorResponse(rid: cid, error: error), into: &actions)
                session.write(ServerFrames.transmit(event: "#removeAuthToken", data: nil), into: &actions)
            } else {
                let reported = (data == nil || data?.isNull == true) ? nil : error
                session.write(
                    ServerFrames.authenticateResponse(rid: cid, isAuthenticated: false, authError: reported),
                    into: &actions)
            }
            sessions[connection] = session
        }
    }

    private mutating func processPublish(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: Int64?, into actions: inout [BrokerAction]
    ) {
        guard options.allowClientPublish else {
            answerError(connection, cid: cid, .invalidAction("Client publish feature is disabled"), into: &actions)
            return
        }
        guard let payload = data, !payload.isFalsy, let channel = payload["channel"]?.stringValue else {
            answerError(connection, cid: cid, .invalidAction("Publish channel name was malformatted"), into: &actions)
            return
        }
        guard let info = sessions[connection]?.info else { return }
        let request = BrokerPublishRequest(socket: info, channel: channel, data: payload["data"])
        if authorizesPublish {
            sessions[connection]?.awaitingAuthorization = .init(request: .publish(request), cid: cid)
            actions.append(.authorize(connection, .publish(request)))
            return
        }
        completePublish(connection, request: request, cid: cid, into: &actions)
    }

    private mutating func completePublish(
        _ connection: BrokerConnectionID, request: BrokerPublishRequest, cid: Int64?, into actions: inout [BrokerAction]
    ) {
        actions.append(contentsOf: publish(channel: request.channel, data: request.data))
        if let cid {
            write(ServerFrames.response(rid: cid, data: nil), to: connection, into: &actions)
        } else {
            deliver(connection, receiver: "#publish", data: request.data, into: &actions)
        }
    }

    private mutating func processSubscribe(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: Int64?, into actions: inout [BrokerAction]
    ) {
        guard let payload = data, !payload.isFalsy, let channel = payload["channel"]?.stringValue else {
            answerError(connection, cid: cid, .invalidAction("Subscribe channel name was malformatted"), into: &actions)
            return
        }
        guard let info = sessions[connection]?.info else { return }
        let request = BrokerSubscribeRequest(
            socket: info, channel: channel, data: payload["data"], waitForAuth: payload["waitForAuth"]?.isFalsy == false)
        if authorizesSubscribe {
            sessions[connection]?.awaitingAuthorization = .init(request: .subscribe(request), cid: cid)
            actions.append(.authorize(connection, .subscribe(request)))
            return
        }
        completeSubscribe(connection, request: request, cid: cid, into: &actions)
    }

    private mutating func completeSubscribe(
        _ connection: BrokerConnectionID, request: BrokerSubscribeRequest, cid: Int64?, into actions: inout [BrokerAction]
    ) {
        guard let cid else {
            // A transmit `#subscribe` reaches receivers but never subscribes (as the real server).
            deliver(connection, receiver: "#subscribe", data: request.data, into: &actions)
            return
        }
        sessions[connection]?.addSubscription(request.channel)
        channels[request.channel, default: ChannelSubscribers()].insert(connection)
        write(ServerFrames.response(rid: cid, data: nil), to: connection, into: &actions)
    }

    private mutating func processUnsubscribe(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: Int64?, into actions: inout [BrokerAction]
    ) {
        guard let channel = data?.stringValue, let session = sessions[connection] else {
            answerError(connection, cid: cid, .invalidAction("Unsubscribe channel name was malformatted"), into: &actions)
            return
        }
        if session.isSubscribed(to: channel) {
            unsubscribe(connection, from: channel)
            if let cid { write(ServerFrames.response(rid: cid, data: nil), to: connection, into: &actions) }
        } else {
            let message = "Failed to unsubscribe socket from the \(channel) channel - InvalidActionError: Socket "
                + "\(session.id) tried to unsubscribe from a channel which it is not subscribed to"
            answerError(connection, cid: cid, .broker(message), into: &actions)
        }
        if cid == nil {
            deliver(connection, receiver: "#unsubscribe", data: data, into: &actions)
        }
    }

    private mutating func resolveInvoke(
        _ connection: BrokerConnectionID, rid: Int64, result: Result<JSONValue?, BrokerErrorPayload>,
        into actions: inout [BrokerAction]
    ) {
        guard let pending = sessions[connection]?.pendingInvokes.removeValue(forKey: rid) else { return }
        actions.append(.completeInvoke(token: pending.token, result: result.mapError { .remote($0) }))
        reportDeadline(connection, into: &actions)
    }

    // MARK: - Helpers

    private mutating func write(_ packet: String, to connection: BrokerConnectionID, into actions: inout [BrokerAction]) {
        sessions[connection]?.write(packet, into: &actions)
    }

    private mutating func answerError(
        _ connection: BrokerConnectionID, cid: Int64?, _ error: BrokerErrorPayload, into actions: inout [BrokerAction]
    ) {
        guard let cid else { return }
        write(ServerFrames.errorResponse(rid: cid, error: error), to: connection, into: &actions)
    }

    private mutating func deliver(
        _ connection: BrokerConnectionID, receiver: String, data: JSONValue?, into actions: inout [BrokerAction]
    ) {
        guard let info = sessions[connection]?.info else { return }
        actions.append(.deliverMessage(.init(connection: connection, socket: info, receiver: receiver, data: data)))
    }

    private mutating func deauthenticate(_ connection: BrokerConnectionID, push: Bool, into actions: inout [BrokerAction]) {
        guard var session = sessions[connection] else { return }
        session.authToken = nil
        session.signedAuthToken = nil
        if push {
            session.write(ServerFrames.transmit(event: "#removeAuthToken", data: nil), into: &actions)
        }
        sessions[connection] = session
    }

    private mutating func unsubscribe(_ connection: BrokerConnectionID, from channel: String) {
        sessions[connection]?.removeSubscription(channel)
        channels[channel]?.remove(connection)
        if channels[channel]?.isEmpty == true { channels[channel] = nil }
    }

    private mutating func endSession(
        _ connection: BrokerConnectionID, code: UInt16, reason: String, sendClose: Bool, into actions: inout [BrokerAction]
    ) {
        guard let session = sessions.removeValue(forKey: connection) else { return }
        for channel in session.subscriptions {
            channels[channel]?.remove(connection)
            if channels[channel]?.isEmpty == true { channels[channel] = nil }
        }
        if sendClose {
            actions.append(.close(connection, code: code, reason: reason))
        }
        if session.reportedDeadline != nil {
            actions.append(.setDeadline(connection, nil))
        }
        for (_, pending) in session.pendingInvokes.sorted(by: { $0.key < $1.key }) {
            actions.append(.completeInvoke(token: pending.token, result: .failure(.connectionClosed)))
        }
        if session.hasConnected {
            actions.append(.socketDisconnected(connection, session.info, code: code, reason: reason))
        }
    }

    private mutating func reportDeadline(_ connection: BrokerConnectionID, into actions: inout [BrokerAction]) {
        guard var session = sessions[connection] else { return }
        let deadline = session.nextDeadline
        guard deadline != session.reportedDeadline else { return }
        session.reportedDeadline = deadline
        sessions[connection] = session
        actions.append(.setDeadline(connection, deadline))
    }
}

extension JSONValue {
    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are falsy.
    var isFalsy: Bool {
        switch self {
        case .null: return true
        case .bool(let value): return !value
        case .int(let value): return value == 0
        case .double(let value): return value == 0 || value.isNaN
        case .string(let value): return value.isEmpty
        case .array, .object: return false
        }
    }
}
