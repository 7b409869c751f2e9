@_spi(Cores) import MonotonicTime
import Foundation

/// The sans-I/O broker: every connection's `BrokerSocketSession`, the channel table and the
/// protocol rules of socketcluster-server 19 (strict handshake, pings, reserved events, auth,
/// pub/sub). It owns no socket, thread, timer or clock, and must be used from one serial context.
///
/// The core shape of `ClientSession` and WireKit's `WebSocketStateMachine`: each input is one
/// mutating method taking `now` (a `MonotonicInstant`; inputs that may sign or verify a JWT also
/// take `wallClock`, the only use of wall time); what it asks for queues up and the runtime drains
/// it with `nextAction()`, then arms one timer for `nextDeadline` and calls `timeElapsed(now:)`.
package struct BrokerCore {
    package let options: BrokerOptions
    /// Whether client subscribes must be authorized by the application (`.authorize` actions).
    package var authorizesSubscribe = false
    /// Whether client publishes must be authorized by the application.
    package var authorizesPublish = false
    /// Whether first handshakes must be authorized by the application (`.authorize(.handshake)`).
    package var authorizesHandshake = false
    private(set) var sessions: [BrokerConnectionID: BrokerSessionSlot] = [:]
    private var channels: [String: ChannelSubscribers] = [:]
    private var idGenerator: SocketIDGenerator
    private let tokens: AuthTokenAuthority
    private var nextInvokeToken: UInt64 = 1
    /// Actions not taken yet.
    private var actions = ActionQueue<BrokerAction>()
    /// Every connection's next deadline; an entry is stale unless it equals that session's
    /// `reportedDeadline`.
    private var deadlines = DeadlineHeap()  // keyed by BrokerConnectionID.rawValue

    /// `options.codec`, and whether it is the JSON codec (whose `#publish` invokes are routed
    /// without a tree, `InboundPublish`).
    private let codec: any PacketCodec
    private let codecIsJSON: Bool
    private let packetKind: PacketMessageKind
    /// `#removeAuthToken` as the codec writes it.
    private let removeAuthTokenFrame: [UInt8]

    /// `socketIDBytes` fills the random part of socket ids (sequence number first); nil uses the
    /// system's generator. The simulator injects a seeded one so that a run replays exactly.
    package init(options: BrokerOptions, socketIDBytes: (@Sendable (UInt32, inout [UInt8]) -> Void)? = nil) {
        var options = options
        let authKey = options.authKey ?? BrokerOptions.generatedAuthKey()
        options.authKey = authKey
        self.options = options
        self.codec = options.codec
        self.codecIsJSON = options.codec is JSONPacketCodec
        self.packetKind = options.codec.messageKind
        self.removeAuthTokenFrame = Packet.transmit(event: BuiltInEvent.removeAuthToken, data: nil).encoded(with: options.codec)
        self.idGenerator = SocketIDGenerator(fill: socketIDBytes)
        self.tokens = AuthTokenAuthority(
            key: authKey, defaultExpiry: options.authDefaultExpiry, maximumTokenLength: options.maxAuthTokenLength)
    }

    // MARK: - Outputs

    /// The next action the inputs so far asked for, in order; nil when all were taken.
    package mutating func nextAction() -> BrokerAction? { actions.next() }

    /// When `timeElapsed(now:)` must be called next, if any timer runs.
    package var nextDeadline: MonotonicInstant? { deadlines.top?.deadline }

    // MARK: - Queries

    package func socketInfo(_ connection: BrokerConnectionID) -> BrokerSocketInfo? {
        sessions[connection]?.session.info
    }

    package func subscriptions(of connection: BrokerConnectionID) -> [String] {
        sessions[connection]?.session.subscriptions ?? []
    }

    /// Sockets that completed their handshake and are still open.
    package var connectedSockets: [BrokerConnectionID] {
        sessions.values.filter { $0.session.phase == .open }.map(\.session.connection)
    }

    package func subscriberCount(of channel: String) -> Int { channels[channel]?.count ?? 0 }

    /// Connections the core holds a session for, handshaking or open.
    package var sessionCount: Int { sessions.count }

    /// Entries of the channel table (a channel with no subscriber left should have none).
    package var channelCount: Int { channels.count }

    /// Server invokes on `connection` still waiting for the client's answer.
    package func pendingInvokeCount(of connection: BrokerConnectionID) -> Int {
        sessions[connection]?.session.pendingInvokes.count ?? 0
    }

    // MARK: - Connection events

    /// A WebSocket connection was accepted: starts the ping, pong and handshake clocks.
    package mutating func connectionOpened(_ connection: BrokerConnectionID, now: MonotonicInstant) {
        var session = BrokerSocketSession(connection: connection, id: idGenerator.next())
        if !options.pingTimeoutDisabled {
            session.nextPingAt = now + options.pingInterval
            session.pongDeadline = now + options.pingTimeout
        }
        session.handshakeDeadline = now + options.handshakeTimeout
        sessions[connection] = BrokerSessionSlot(session)
        reportDeadline(connection)
    }

    /// The peer closed the connection (or it dropped): forget the socket.
    package mutating func connectionClosed(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        endSession(connection, code: code, reason: reason, sendClose: false)
    }

    /// A text frame arrived.
    package mutating func receivedText(_ text: String, from connection: BrokerConnectionID, now: MonotonicInstant, wallClock: Date) {
        guard sessions.index(forKey: connection) != nil else { return }
        if text == options.protocolVersion.pongText {
            receivedPong(connection, now: now, wallClock: wallClock)
        } else if mayTakeRawPublish, let publish = InboundPublish.scan(text), acceptsRawPublish(from: connection) {
            receivedPublish(publish, from: connection, wallClock: wallClock)
        } else {
            var text = text
            let classified = text.withUTF8 {
                InboundItem.classify($0, kind: .text, codec: codec, maximumValues: options.maxMessageValues ?? .max)
            }
            receivedMessage(classified, from: connection, wallClock: wallClock)
        }
        reportDeadline(connection)
    }

    /// A binary frame arrived: the codec's packets (the JSON codec decodes it as UTF-8 JSON like
    /// a text frame); never a ping or pong.
    package mutating func receivedBinary(_ bytes: [UInt8], from connection: BrokerConnectionID, wallClock: Date) {
        guard sessions.index(forKey: connection) != nil else { return }
        if mayTakeRawPublish, let publish = bytes.withUnsafeBufferPointer({ InboundPublish.scan($0, isValidUTF8: false) }),
            acceptsRawPublish(from: connection)
        {
            receivedPublish(publish, from: connection, wallClock: wallClock)
            reportDeadline(connection)
            return
        }
        let classified = bytes.withUnsafeBufferPointer {
            InboundItem.classify($0, kind: .binary, codec: codec, maximumValues: options.maxMessageValues ?? .max)
        }
        receivedMessage(classified, from: connection, wallClock: wallClock)
        reportDeadline(connection)
    }

    /// Time passed: runs whatever is due at `now` on every connection (handshake timeout, ping,
    /// pong timeout, server invoke timeouts).
    package mutating func timeElapsed(now: MonotonicInstant) {
        while let top = deadlines.top, top.deadline <= now {
            deadlines.popTop()
            let connection = BrokerConnectionID(rawValue: top.key)
            guard let slot = sessions[connection], slot.session.reportedDeadline == top.deadline else { continue }
            slot.session.reportedDeadline = nil
            runTimers(of: connection, now: now)
        }
        dropStaleDeadlines()
    }

    private mutating func runTimers(of connection: BrokerConnectionID, now: MonotonicInstant) {
        guard let slot = sessions[connection] else { return }
        if slot.session.phase == .connecting, let deadline = slot.session.handshakeDeadline, deadline <= now {
            fail(connection, .handshakeTimedOut)
            return
        }
        if let pingAt = slot.session.nextPingAt, pingAt <= now {
            // Pings bypass batching, as the server's `send` does.
            actions.append(.send(connection, Array(options.protocolVersion.pingText.utf8)))
            var next = pingAt + options.pingInterval
            while next <= now { next = next + options.pingInterval }
            slot.session.nextPingAt = next
        }
        if let deadline = slot.session.pongDeadline, deadline <= now {
            fail(connection, .clientPongTimedOut)
            return
        }
        let expired = slot.session.pendingInvokes.filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
        for (cid, pending) in expired {
            slot.session.pendingInvokes[cid] = nil
            actions.append(.completeInvoke(token: pending.token, result: .failure(.timedOut)))
        }
        reportDeadline(connection)
    }

    // MARK: - Application commands

    /// Answers the client invoke `cid` (a procedure's result).
    package mutating func respond(
        to connection: BrokerConnectionID, cid: BrokerCallID, result: Result<JSONValue?, RemoteError>
    ) {
        write(cid.response { Packet.response(rid: $0, result: result).encoded(with: codec) }, to: connection)
    }

    /// Sends a transmit to an open socket (dropped when the socket is not open, as the server does).
    package mutating func transmit(to connection: BrokerConnectionID, event: String, data: JSONValue?) {
        guard sessions[connection]?.session.phase == .open else { return }
        write(Packet.transmit(event: event, data: data).encoded(with: codec), to: connection)
    }

    /// Sends a server invoke; its outcome arrives later as `.completeInvoke(token:…)`. Returns
    /// `nil` as token when the socket is not open.
    package mutating func invoke(
        on connection: BrokerConnectionID, event: String, data: JSONValue?, ackTimeout: Duration?, now: MonotonicInstant
    ) -> UInt64? {
        guard let slot = sessions[connection], slot.session.phase == .open else { return nil }
        let cid = slot.session.nextCallID
        slot.session.nextCallID += 1
        let token = nextInvokeToken
        nextInvokeToken += 1
        let timeout = ackTimeout ?? options.ackTimeout
        slot.session.pendingInvokes[cid] = .init(token: token, event: event, deadline: now + timeout)
        slot.session.write(Packet.invoke(event: event, data: data, cid: cid).encoded(with: codec), kind: packetKind, into: &actions)
        reportDeadline(connection)
        return token
    }

    /// Publishes to every socket subscribed to `channel`, in subscription order.
    package mutating func publish(channel: String, data: JSONValue?) {
        guard channels[channel] != nil else { return }
        publish(channel: channel, frame: publishFrame(channel: channel, data: data))
    }

    /// Sends the publication `frame` to every socket subscribed to `channel`, in subscription order.
    private mutating func publish(channel: String, frame: [UInt8]) {
        guard var subscribers = channels[channel] else { return }
        let order = subscribers.inOrder()
        channels[channel] = subscribers
        actions.reserveCapacity(order.count)
        for connection in order where sessions[connection]?.session.phase == .open {
            write(frame, to: connection)
        }
    }

    /// Issues a signed token to the socket and pushes it with `#setAuthToken`. Returns the signed
    /// token, or `nil` when the socket has not completed its handshake or is gone.
    package mutating func setAuthToken(
        on connection: BrokerConnectionID, payload: [String: JSONValue], wallClock: Date
    ) -> String? {
        guard let slot = sessions[connection], slot.session.phase == .open else { return nil }
        let signed = tokens.sign(payload, now: wallClock)
        slot.session.authToken = signed.payload
        slot.session.signedAuthToken = signed.token
        slot.session.write(
            Packet.transmit(event: BuiltInEvent.setAuthToken, data: .object(["token": .string(signed.token)])).encoded(with: codec),
            kind: packetKind, into: &actions)
        return signed.token
    }

    /// Drops the socket's token and pushes `#removeAuthToken`.
    package mutating func deauthenticate(_ connection: BrokerConnectionID) {
        deauthenticate(connection, push: true)
    }

    /// Pushes `#kickOut` for `channel` (or for every subscribed channel when `nil`) and
    /// unsubscribes the socket.
    package mutating func kickOut(_ connection: BrokerConnectionID, channel: String?, message: String?) {
        guard let slot = sessions[connection], slot.session.phase == .open else { return }
        for name in channel.map({ [$0] }) ?? slot.session.subscriptions {
            write(kickOutFrame(channel: name, message: message), to: connection)
            unsubscribe(connection, from: name)
        }
    }

    /// Closes the connection with `code` and `reason`.
    package mutating func disconnect(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        endSession(connection, code: code, reason: reason, sendClose: true)
    }

    /// Starts holding packets for this socket until `flushBatch` (pings are never held).
    package mutating func startBatch(_ connection: BrokerConnectionID) {
        sessions[connection]?.session.batch = []
    }

    /// Sends the held packets as one batch frame (a JSON array, or the codec's) and stops batching.
    package mutating func flushBatch(_ connection: BrokerConnectionID) {
        guard let held = sessions[connection]?.session.batch else { return }
        sessions[connection]?.session.batch = nil
        guard !held.isEmpty else { return }
        let frame = codec.encodeBatch(held)
        actions.append(packetKind == .text ? .send(connection, frame) : .sendBinary(connection, frame))
    }

    /// Drops the held packets and stops batching.
    package mutating func cancelBatch(_ connection: BrokerConnectionID) {
        sessions[connection]?.session.batch = nil
    }

    // MARK: - Inbound processing

    /// Whether `#publish` invokes may take the raw path at all: the codec is JSON, clients may
    /// publish and no publish hook needs the data as a value. Checked before a frame is scanned for one.
    private var mayTakeRawPublish: Bool { codecIsJSON && options.allowClientPublish && !authorizesPublish }

    /// Whether a `#publish` invoke found by the scan (`mayTakeRawPublish` holding) may take the
    /// raw path on `connection`: the socket is open and nothing of its own waits before it.
    private mutating func acceptsRawPublish(from connection: BrokerConnectionID) -> Bool {
        sessions[connection]?.session.isReadyForRawPublish() ?? false
    }

    /// A `#publish` invoke read without a tree (`InboundPublish`): the same checks and answers as
    /// `processPublish`, with the client's data bytes spliced into the publication.
    private mutating func receivedPublish(_ publish: InboundPublish, from connection: BrokerConnectionID, wallClock: Date) {
        if sessions[connection]?.session.authTokenExpired(at: wallClock) == true {
            deauthenticate(connection, push: true)
        }
        let cid = publish.callIDText.map(BrokerCallID.init(text:)) ?? BrokerCallID(publish.cid)
        if let limit = options.maxChannelNameLength, publish.channel.utf8.count > limit {
            answerError(connection, cid: cid, .invalidAction("Publish channel name exceeded the maximum length of \(limit) bytes"))
            actions.append(.channelNameTooLong(connection, length: publish.channel.utf8.count, limit: limit))
            return
        }
        self.publish(channel: publish.channel, frame: publish.publication)
        write(emptyResponse(rid: cid), to: connection)
    }

    private mutating func receivedPong(_ connection: BrokerConnectionID, now: MonotonicInstant, wallClock: Date) {
        guard let slot = sessions[connection] else { return }
        if !options.pingTimeoutDisabled {
            slot.session.pongDeadline = now + options.pingTimeout
        }
        if slot.session.phase == .connecting {
            fail(connection, .messageBeforeHandshake)
            return
        }
        if slot.session.authTokenExpired(at: wallClock) {
            deauthenticate(connection, push: true)
        }
    }

    /// One inbound message: `nil` items means a frame that is not JSON (a raw message); a failure
    /// is JSON over `maxMessageValues`, which closes the connection with 1009.
    private mutating func receivedMessage(
        _ classified: Result<[InboundItem]?, PacketDecodingError>, from connection: BrokerConnectionID, wallClock: Date
    ) {
        let items: [InboundItem]?
        switch classified {
        case .success(let classifiedItems):
            items = classifiedItems
        case .failure(let error):
            let reason: String
            switch error.reason {
            case .tooManyValues(let limit): reason = "Message has more than \(limit) \(codecIsJSON ? "JSON " : "")values"
            case .limitExceeded: reason = error.description
            }
            endSession(connection, code: BrokerOptions.tooManyValuesCloseCode.rawValue, reason: reason, sendClose: true)
            return
        }
        guard let items else {
            if sessions[connection]?.session.phase == .connecting {
                fail(connection, .messageBeforeHandshake)
            }
            return
        }
        // Mutated in place (not copied out) so the array is never duplicated.
        sessions[connection]?.session.pendingItems.insert(contentsOf: items.reversed(), at: 0)
        drainPendingItems(connection, wallClock: wallClock)
    }

    /// Processes queued inbound packets in order until none is left, an authorization is
    /// awaited, or the session ends.
    private mutating func drainPendingItems(_ connection: BrokerConnectionID, wallClock: Date) {
        while let item = sessions[connection]?.session.takeNextPendingItem() {
            process(item, from: connection, wallClock: wallClock)
        }
    }

    /// The application decided on a held subscribe or publish (`rejection` is its error, `nil`
    /// to allow); the connection's remaining packets are processed afterwards.
    package mutating func authorizationDecided(
        _ connection: BrokerConnectionID, rejection: RemoteError?, wallClock: Date
    ) {
        guard let pending = sessions[connection]?.session.awaitingAuthorization else { return }
        sessions[connection]?.session.awaitingAuthorization = nil
        if let rejection {
            answerError(connection, cid: pending.cid, rejection)
        } else {
            switch pending.request {
            case .subscribe(let request):
                completeSubscribe(connection, request: request, cid: pending.cid)
            case .publish(let request):
                completePublish(connection, request: request, cid: pending.cid)
            case .handshake(let request):
                if let cid = pending.cid {
                    processHandshake(connection, data: request.data, cid: cid, wallClock: wallClock)
                }
            }
        }
        drainPendingItems(connection, wallClock: wallClock)
        reportDeadline(connection)
    }

    private mutating func process(
        _ item: InboundItem, from connection: BrokerConnectionID, wallClock: Date
    ) {
        guard let phase = sessions[connection]?.session.phase else { return }
        guard case .event(let event, let data, let cid) = item else {
            if phase == .connecting {
                fail(connection, .messageBeforeHandshake)
                return
            }
            if case .response(let rid, let result) = item {
                resolveInvoke(connection, rid: rid, result: result)
            }
            return
        }
        if event == BuiltInEvent.handshake {
            guard let cid else {
                fail(connection, .handshakeRejected)
                return
            }
            if authorizesHandshake, phase == .connecting, let info = sessions[connection]?.session.info {
                let request = BrokerHandshakeRequest(socket: info, data: data)
                sessions[connection]?.session.handshakeDeadline = nil
                sessions[connection]?.session.awaitingAuthorization = .init(request: .handshake(request), cid: cid)
                actions.append(.authorize(connection, .handshake(request)))
                return
            }
            processHandshake(connection, data: data, cid: cid, wallClock: wallClock)
            return
        }
        if phase == .connecting {
            fail(connection, .messageBeforeHandshake)
            return
        }
        switch event {
        case BuiltInEvent.authenticate:
            guard let cid else {
                fail(connection, .handshakeRejected)
                return
            }
            processAuthenticate(connection, data: data, cid: cid, wallClock: wallClock)
            return
        case BuiltInEvent.removeAuthToken:
            deauthenticate(connection, push: false)
            deliver(connection, receiver: event, data: data)
            return
        default:
            break
        }
        if sessions[connection]?.session.authTokenExpired(at: wallClock) == true {
            deauthenticate(connection, push: true)
        }
        switch event {
        case BuiltInEvent.publish:
            processPublish(connection, data: data, cid: cid)
        case BuiltInEvent.subscribe:
            processSubscribe(connection, data: data, cid: cid)
        case BuiltInEvent.unsubscribe:
            processUnsubscribe(connection, data: data, cid: cid)
        default:
            guard let info = sessions[connection]?.session.info else { return }
            if let cid {
                actions.append(.callProcedure(.init(connection: connection, socket: info, procedure: event, data: data, cid: cid)))
            } else {
                actions.append(.deliverMessage(.init(connection: connection, socket: info, receiver: event, data: data)))
            }
        }
    }

    /// The application decided on a held `#handshake`: `rejection` answers it with an error and
    /// closes the connection with the rejection's code and reason; `nil` completes it.
    package mutating func handshakeDecided(
        _ connection: BrokerConnectionID, rejection: BrokerHandshakeRejection?, wallClock: Date
    ) {
        guard let rejection else {
            authorizationDecided(connection, rejection: nil, wallClock: wallClock)
            return
        }
        guard let pending = sessions[connection]?.session.awaitingAuthorization,
            case .handshake = pending.request
        else { return }
        sessions[connection]?.session.awaitingAuthorization = nil
        answerError(connection, cid: pending.cid, RemoteError(name: "Error", message: rejection.reason))
        endSession(connection, code: rejection.code.rawValue, reason: Self.closeReason(rejection.reason), sendClose: true)
    }

    /// `reason` cut to the 123 UTF-8 bytes a close frame can carry, on a character boundary.
    static func closeReason(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }

    private mutating func processHandshake(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: BrokerCallID, wallClock: Date
    ) {
        guard let slot = sessions[connection] else { return }
        slot.session.handshakeDeadline = nil
        // `data.authToken || null`: every falsy value counts as "no token".
        var token = data?.objectValue?["authToken"]
        if let value = token, !value.isTruthy { token = nil }
        var authError: RemoteError?
        var removeToken = false
        switch tokens.verify(token, now: wallClock) {
        case .valid(let payload, let signed):
            slot.session.authToken = payload
            slot.session.signedAuthToken = signed
        case .rejected(let error, let isBadToken):
            slot.session.authToken = nil
            slot.session.signedAuthToken = nil
            if token != nil {
                authError = error
                removeToken = isBadToken
            }
        }
        slot.session.phase = .open
        let firstHandshake = !slot.session.hasConnected
        slot.session.hasConnected = true
        slot.session.write(
            codec.encodedHandshakeResponse(
                HandshakeResponse(
                    id: slot.session.id, pingTimeout: options.pingTimeout.wholeMilliseconds,
                    isAuthenticated: slot.session.authToken != nil, authError: authError),
                rid: cid.value
            ).withResponseID(cid),
            kind: packetKind, into: &actions)
        if removeToken {
            slot.session.write(removeAuthTokenFrame, kind: packetKind, into: &actions)
        }
        if firstHandshake {
            actions.append(.socketConnected(connection, slot.session.info))
        }
    }

    private mutating func processAuthenticate(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: BrokerCallID, wallClock: Date
    ) {
        guard let slot = sessions[connection] else { return }
        switch tokens.verify(data, now: wallClock) {
        case .valid(let payload, let signed):
            slot.session.authToken = payload
            slot.session.signedAuthToken = signed
            slot.session.write(
                codec.encodedAuthenticateResponse(AuthenticateResponse(isAuthenticated: true), rid: cid.value).withResponseID(cid),
                kind: packetKind, into: &actions)
        case .rejected(let error, let isBadToken):
            slot.session.authToken = nil
            slot.session.signedAuthToken = nil
            if isBadToken {
                slot.session.write(
                    cid.response { Packet.response(rid: $0, result: .failure(error)).encoded(with: codec) },
                    kind: packetKind, into: &actions)
                slot.session.write(removeAuthTokenFrame, kind: packetKind, into: &actions)
            } else {
                let reported = (data == nil || data?.isNull == true) ? nil : error
                slot.session.write(
                    codec.encodedAuthenticateResponse(AuthenticateResponse(isAuthenticated: false, authError: reported), rid: cid.value)
                        .withResponseID(cid),
                    kind: packetKind, into: &actions)
            }
        }
    }

    private mutating func processPublish(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: BrokerCallID?
    ) {
        guard options.allowClientPublish else {
            answerError(connection, cid: cid, .invalidAction("Client publish feature is disabled"))
            return
        }
        guard let payload = data, payload.isTruthy, let channel = payload["channel"]?.stringValue else {
            answerError(connection, cid: cid, .invalidAction("Publish channel name was malformatted"))
            return
        }
        if let limit = options.maxChannelNameLength, channel.utf8.count > limit {
            answerError(connection, cid: cid, .invalidAction("Publish channel name exceeded the maximum length of \(limit) bytes"))
            actions.append(.channelNameTooLong(connection, length: channel.utf8.count, limit: limit))
            return
        }
        guard let info = sessions[connection]?.session.info else { return }
        let request = BrokerPublishRequest(socket: info, channel: channel, data: payload["data"])
        if authorizesPublish {
            sessions[connection]?.session.awaitingAuthorization = .init(request: .publish(request), cid: cid)
            actions.append(.authorize(connection, .publish(request)))
            return
        }
        completePublish(connection, request: request, cid: cid)
    }

    private mutating func completePublish(
        _ connection: BrokerConnectionID, request: BrokerPublishRequest, cid: BrokerCallID?
    ) {
        publish(channel: request.channel, data: request.data)
        if let cid {
            write(emptyResponse(rid: cid), to: connection)
        } else {
            deliver(connection, receiver: BuiltInEvent.publish, data: request.data)
        }
    }

    private mutating func processSubscribe(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: BrokerCallID?
    ) {
        guard let payload = data, payload.isTruthy, let channel = payload["channel"]?.stringValue else {
            answerError(connection, cid: cid, .invalidAction("Subscribe channel name was malformatted"))
            return
        }
        if let limit = options.maxChannelNameLength, channel.utf8.count > limit {
            answerError(connection, cid: cid, .invalidAction("Subscribe channel name exceeded the maximum length of \(limit) bytes"))
            actions.append(.channelNameTooLong(connection, length: channel.utf8.count, limit: limit))
            return
        }
        guard let info = sessions[connection]?.session.info else { return }
        let request = BrokerSubscribeRequest(
            socket: info, channel: channel, data: payload["data"], waitForAuth: payload["waitForAuth"]?.isTruthy == true)
        if authorizesSubscribe {
            sessions[connection]?.session.awaitingAuthorization = .init(request: .subscribe(request), cid: cid)
            actions.append(.authorize(connection, .subscribe(request)))
            return
        }
        completeSubscribe(connection, request: request, cid: cid)
    }

    private mutating func completeSubscribe(
        _ connection: BrokerConnectionID, request: BrokerSubscribeRequest, cid: BrokerCallID?
    ) {
        guard let cid else {
            // A transmit `#subscribe` reaches receivers but never subscribes (as the real server).
            deliver(connection, receiver: BuiltInEvent.subscribe, data: request.data)
            return
        }
        // socketcluster-server checks the limit before anything else, even for a channel the
        // socket is already subscribed to.
        if let limit = options.socketChannelLimit, let slot = sessions[connection], slot.session.subscriptionList.count >= limit {
            let message =
                "Failed to subscribe socket to the \(request.channel) channel - InvalidActionError: Socket "
                + "\(slot.session.id) tried to exceed the channel subscription limit of \(limit)"
            answerError(connection, cid: cid, .broker(message))
            actions.append(.channelLimitReached(connection, channel: request.channel, limit: limit))
            return
        }
        if let budget = options.maxSubscriptionBytes, let slot = sessions[connection], !slot.session.isSubscribed(to: request.channel),
            slot.session.subscriptionList.byteCount + request.channel.utf8.count > budget
        {
            let message =
                "Failed to subscribe socket to a channel - InvalidActionError: Socket \(slot.session.id) tried to exceed "
                + "the channel name budget of \(budget) bytes"
            answerError(connection, cid: cid, .broker(message))
            actions.append(.subscriptionBytesLimitReached(connection, limit: budget))
            return
        }
        sessions[connection]?.session.addSubscription(request.channel)
        channels[request.channel, default: ChannelSubscribers()].insert(connection)
        write(emptyResponse(rid: cid), to: connection)
    }

    private mutating func processUnsubscribe(
        _ connection: BrokerConnectionID, data: JSONValue?, cid: BrokerCallID?
    ) {
        guard let channel = data?.stringValue, let slot = sessions[connection] else {
            answerError(connection, cid: cid, .invalidAction("Unsubscribe channel name was malformatted"))
            return
        }
        if slot.session.isSubscribed(to: channel) {
            unsubscribe(connection, from: channel)
            if let cid { write(emptyResponse(rid: cid), to: connection) }
        } else if let limit = options.maxChannelNameLength, channel.utf8.count > limit {
            // Not echoed back: a name this long cannot be subscribed.
            answerError(connection, cid: cid, .invalidAction("Unsubscribe channel name exceeded the maximum length of \(limit) bytes"))
        } else {
            let message =
                "Failed to unsubscribe socket from the \(channel) channel - InvalidActionError: Socket "
                + "\(slot.session.id) tried to unsubscribe from a channel which it is not subscribed to"
            answerError(connection, cid: cid, .broker(message))
        }
        if cid == nil {
            deliver(connection, receiver: BuiltInEvent.unsubscribe, data: data)
        }
    }

    private mutating func resolveInvoke(
        _ connection: BrokerConnectionID, rid: Int64, result: Result<JSONValue?, RemoteError>
    ) {
        guard let pending = sessions[connection]?.session.pendingInvokes.removeValue(forKey: rid) else { return }
        actions.append(.completeInvoke(token: pending.token, result: result.mapError { .remote($0) }))
        reportDeadline(connection)
    }

    // MARK: - Helpers

    private mutating func write(_ packet: [UInt8], to connection: BrokerConnectionID) {
        let kind = packetKind
        sessions[connection]?.session.write(packet, kind: kind, into: &actions)
    }

    private mutating func answerError(
        _ connection: BrokerConnectionID, cid: BrokerCallID?, _ error: RemoteError
    ) {
        guard let cid else { return }
        write(cid.response { Packet.response(rid: $0, result: .failure(error)).encoded(with: codec) }, to: connection)
    }

    private mutating func deliver(
        _ connection: BrokerConnectionID, receiver: String, data: JSONValue?
    ) {
        guard let info = sessions[connection]?.session.info else { return }
        actions.append(.deliverMessage(.init(connection: connection, socket: info, receiver: receiver, data: data)))
    }

    private mutating func deauthenticate(_ connection: BrokerConnectionID, push: Bool) {
        guard let slot = sessions[connection] else { return }
        slot.session.authToken = nil
        slot.session.signedAuthToken = nil
        if push {
            slot.session.write(removeAuthTokenFrame, kind: packetKind, into: &actions)
        }
    }

    private mutating func unsubscribe(_ connection: BrokerConnectionID, from channel: String) {
        sessions[connection]?.session.removeSubscription(channel)
        channels[channel]?.remove(connection)
        if channels[channel]?.isEmpty == true { channels[channel] = nil }
    }

    /// Closes the connection for a protocol failure of the client's.
    private mutating func fail(_ connection: BrokerConnectionID, _ code: SocketClusterCloseCode) {
        endSession(connection, code: code.rawValue, reason: "", sendClose: true)
    }

    // MARK: - Frames (socketcluster-server's key order: `event, cid, data`)

    private func emptyResponse(rid: BrokerCallID) -> [UInt8] {
        rid.response { Packet.response(rid: $0, result: .success(nil)).encoded(with: codec) }
    }

    /// `{"event":"#publish","data":{"channel":C[,"data":…]}}`.
    private func publishFrame(channel: String, data: JSONValue?) -> [UInt8] {
        var payload: [String: JSONValue] = ["channel": .string(channel)]
        payload["data"] = data
        return Packet.transmit(event: BuiltInEvent.publish, data: .object(payload)).encoded(with: codec)
    }

    /// `{"event":"#kickOut","data":{"channel":C[,"message":M]}}`.
    private func kickOutFrame(channel: String, message: String?) -> [UInt8] {
        var payload: [String: JSONValue] = ["channel": .string(channel)]
        payload["message"] = message.map(JSONValue.string)
        return Packet.transmit(event: BuiltInEvent.kickOut, data: .object(payload)).encoded(with: codec)
    }

    private mutating func endSession(
        _ connection: BrokerConnectionID, code: UInt16, reason: String, sendClose: Bool
    ) {
        guard let session = sessions.removeValue(forKey: connection)?.session else { return }
        for channel in session.subscriptions {
            channels[channel]?.remove(connection)
            if channels[channel]?.isEmpty == true { channels[channel] = nil }
        }
        if sendClose {
            actions.append(.close(connection, code: code, reason: reason))
        }
        dropStaleDeadlines()
        for (_, pending) in session.pendingInvokes.sorted(by: { $0.key < $1.key }) {
            actions.append(.completeInvoke(token: pending.token, result: .failure(.connectionClosed)))
        }
        if session.hasConnected {
            actions.append(.socketDisconnected(connection, session.info, code: code, reason: reason))
        }
    }

    private mutating func reportDeadline(_ connection: BrokerConnectionID) {
        // Runs after every message (the session is changed in place, see `BrokerSessionSlot`).
        guard let slot = sessions[connection] else { return }
        let deadline = slot.session.nextDeadline
        guard deadline != slot.session.reportedDeadline else { return }
        slot.session.reportedDeadline = deadline
        if let deadline { deadlines.insert(deadline, connection.rawValue) }
        dropStaleDeadlines()
    }

    /// Pops stale entries off the top of the heap, so `nextDeadline` is exact, and rebuilds it
    /// when stale entries outnumber live ones.
    private mutating func dropStaleDeadlines() {
        if deadlines.count > 2 * sessions.count + 16 {
            deadlines.rebuild { entry in
                sessions[BrokerConnectionID(rawValue: entry.key)]?.session.reportedDeadline == entry.deadline
            }
        }
        while let top = deadlines.top, sessions[BrokerConnectionID(rawValue: top.key)]?.session.reportedDeadline != top.deadline {
            deadlines.popTop()
        }
    }
}
