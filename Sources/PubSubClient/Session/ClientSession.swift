@_spi(Cores) import MonotonicTime

/// The SocketCluster client protocol as a sans-I/O state machine: connection requests, transport
/// events, user commands and the current time go in; `SessionAction`s come out (open / send /
/// close the transport, complete calls, persist tokens, tell the application). No sockets,
/// threads or clocks inside.
///
/// The core shape shared with WireKit's `WebSocketStateMachine` and the broker's `BrokerCore`:
/// every input is one mutating method that takes `now` (a `MonotonicInstant`) and returns only
/// what its caller needs at once (a `CallID`); what it asks for queues up inside and the driver
/// drains it with `nextAction()` until nil, then arms one timer for `nextDeadline` and calls
/// `timeElapsed(now:)` when it fires. Timers fire there (and in `networkBecameAvailable`) only:
/// other inputs use `now` to set new deadlines and never have to run overdue ones first.
package struct ClientSession: Sendable {
    /// The options this session was created with.
    package let configuration: SessionConfiguration
    /// Current authentication.
    package internal(set) var auth: AuthStatus = .unauthenticated
    /// Failed connection attempts since the last successful handshake.
    package internal(set) var connectAttempts = 0

    /// The connection and what exists only in its phase.
    var connection: Connection = .closed(reconnectAt: nil)
    var storedToken: String?
    var acks = AckRegistry()
    var channels = ChannelTable()
    var outbound: OutboundQueue
    var ping: PingMonitor
    var nextTransportNumber: UInt64 = 0
    var batch: Batch?
    var nextCallNumber: UInt64 = 0
    /// `authenticate` calls numbered up to this one were sent before a `#removeAuthToken` the
    /// server reads after them: their answers no longer decide the auth state.
    var authenticateCallsSuperseded: UInt64 = 0
    /// When each `subscribeWithAck` call gives up waiting (keyed by call number), and the
    /// channel it waits on. Entries of calls that completed otherwise are dropped when due.
    var subscribeWaitDeadlines = DeadlineHeap()
    var subscribeWaitChannels: [UInt64: String] = [:]
    /// Actions not taken yet.
    var actions = ActionQueue<SessionAction>()
    /// Whether `configuration.codec` is the JSON codec, checked once: its packets are then
    /// written and read directly, with no call through `any PacketCodec` per packet.
    let usesJSONCodec: Bool

    /// A closed session. `storedToken` is what the token store holds under
    /// `configuration.tokenName` (the driver loads it once; the session keeps it in sync
    /// through `saveToken` / `removeToken` actions).
    package init(configuration: SessionConfiguration, storedToken: String? = nil) {
        self.configuration = configuration
        self.storedToken = storedToken
        usesJSONCodec = configuration.codec is JSONPacketCodec
        outbound = OutboundQueue(
            maxMessages: max(0, configuration.maxQueuedMessages),
            maxBytes: max(0, configuration.maxQueuedBytes))
        ping = PingMonitor(version: configuration.protocolVersion, disabled: configuration.pingTimeoutDisabled)
    }

    /// Current connection state.
    package var state: ConnectionState { connection.state }
    /// The handshake response of the current connection, while open.
    package var handshake: HandshakeInfo? {
        if case .open(_, let info) = connection { return info }
        return nil
    }
    /// Server-assigned socket id while open.
    package var socketID: String? { handshake?.id }
    /// When the scheduled reconnect happens, if one is scheduled.
    package var reconnectDeadline: MonotonicInstant? {
        if case .closed(let reconnectAt) = connection { return reconnectAt }
        return nil
    }

    // MARK: Outputs

    /// The next action the inputs so far asked for, in order; nil when all were taken.
    package mutating func nextAction() -> SessionAction? { actions.next() }

    /// When `timeElapsed(now:)` must be called next, if any timer runs.
    package var nextDeadline: MonotonicInstant? {
        // Called on every input, so no intermediate array.
        func earlier(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        return earlier(
            earlier(earlier(acks.nextDeadline, outbound.nextDeadline), earlier(ping.deadline, connection.openDeadline)),
            earlier(reconnectDeadline, subscribeWaitDeadlines.top?.deadline))
    }

    /// Invokes written and not answered yet.
    package var pendingCallCount: Int { acks.count }
    /// Calls waiting in the outbound queue.
    package var queuedCallCount: Int { outbound.count }
    /// The cid the next invoke will carry (never reset).
    package var nextCid: Int64 { acks.nextCid }
    /// Whether outgoing packets are being collected into a batch.
    package var isBatching: Bool { batch != nil }
    /// The server's ping timeout once open, else the connect timeout.
    package var pingTimeout: Duration { .milliseconds(ping.timeout) }

    // MARK: Connection control

    /// Starts connecting if closed (cancelling a scheduled reconnect), or joins the attempt under
    /// way. The returned call completes (`SessionAction.completeConnect`) with the handshake, at
    /// once when already open, or fails when the attempt ends before its handshake (a reconnect
    /// may follow): `transport` when the WebSocket failed, else `connectionFailed` (the server
    /// closed it, the handshake was rejected or timed out, `disconnect`, `reconnect`).
    @discardableResult
    package mutating func connect(now: MonotonicInstant) -> CallID {
        let id = makeCallID()
        if let info = handshake {
            completeConnect(id, .success(info))
            return id
        }
        startConnecting(now: now)
        updateLink { $0.connectCalls.append(id) }
        return id
    }

    /// Closes with `code` (default 1000) and `reason`, and stops reconnecting. If already
    /// closed, cancels a scheduled reconnect and fails calls still queued for it.
    package mutating func disconnect(code: UInt16 = 1000, reason: String = "", now: MonotonicInstant) {
        if case .closed = connection {
            connection = .closed(reconnectAt: nil)
            failQueued(kind: .disconnect, code: code, reason: reason)
            return
        }
        closeLocally(code: code, reason: reason, allowReconnect: false, now: now)
    }

    /// `disconnect(code:reason:)` then `connect` (Protocol.md §11).
    package mutating func reconnect(code: UInt16 = 1000, reason: String = "", now: MonotonicInstant) {
        if case .closed = connection {
            connection = .closed(reconnectAt: nil)
        } else {
            closeLocally(code: code, reason: reason, allowReconnect: false, keepQueue: true, now: now)
        }
        startConnecting(now: now)
    }

    /// The network came back (e.g. a network-path monitor reported it): a scheduled reconnect
    /// happens now instead of after its back-off delay. Also runs due timers, so a connection
    /// that went stale while the app was suspended is noticed at once.
    package mutating func networkBecameAvailable(now: MonotonicInstant) {
        fireTimers(now: now)
        if case .closed(reconnectAt: _?) = connection { startConnecting(now: now) }
    }

    /// Fires every timer due at `now`: connect timeout (4007), ping timeout (4000), handshake
    /// timeout (4003), call timeouts, queued-call timeouts, scheduled reconnect.
    package mutating func timeElapsed(now: MonotonicInstant) {
        fireTimers(now: now)
    }

    // MARK: Transport events

    /// The WebSocket `id` is open: sends `#handshake` as the first frame.
    package mutating func transportOpened(_ id: TransportID, now: MonotonicInstant) {
        guard case .connecting(var link) = connection, link.transport == id, !link.isOpen else { return }
        link.isOpen = true
        link.openDeadline = nil
        link.handshakeToken = storedToken
        connection = .connecting(link)
        ping.start(timeout: configuration.connectTimeout.wholeMilliseconds, now: now)
        let cid = acks.allocateCid()
        acks.register(
            PendingCall(
                cid: cid, event: BuiltInEvent.handshake, purpose: .handshake,
                deadline: now + configuration.ackTimeout))
        let data: JSONValue = .object(["authToken": storedToken.map(JSONValue.string) ?? .null])
        send(.invoke(event: BuiltInEvent.handshake, data: data, cid: cid), batchable: false)
    }

    /// A text frame arrived on transport `id`.
    package mutating func transportReceived(text: String, from id: TransportID, now: MonotonicInstant) {
        guard isCurrentAndOpen(id) else { return }
        if let pong = ping.pong(for: text) {
            ping.restart(now: now)
            actions.append(.sendText(Array(pong.utf8)))
            return
        }
        guard usesJSONCodec || configuration.codec.messageKind == .text else {
            // A ping or pong of the other protocol version is text with every codec.
            let isPingText = text.isEmpty || text == "#1" || text == "#2"
            if !isPingText, rejectsMismatchedFrame(.text, now: now) { return }
            var text = text
            let packets = text.withUTF8 { receivedPackets($0, kind: .text) }
            guard let packets else { return emit(.raw(.text(text))) }
            return receivePackets(packets, now: now)
        }
        receiveFrame(text, now: now)
    }

    /// A binary frame arrived on transport `id`: the packets of a binary codec
    /// (`SessionConfiguration.codec`); with the JSON codec a raw message (Protocol.md §1).
    package mutating func transportReceived(binary: [UInt8], from id: TransportID, now: MonotonicInstant) {
        guard isCurrentAndOpen(id) else { return }
        let packets = binary.withUnsafeBufferPointer { receivedPackets($0, kind: .binary) }
        guard let packets else {
            if configuration.codec.messageKind != .binary, rejectsMismatchedFrame(.binary, now: now) { return }
            return emit(.raw(.binary(Data(binary))))
        }
        receivePackets(packets, now: now)
    }

    /// The packets the codec reads in a frame; `nil` for none. No value limit here (as for JSON).
    private func receivedPackets(_ bytes: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind) -> [InboundPacket]? {
        (try? configuration.codec.decode(bytes, kind: kind, maximumValues: .max)) ?? nil
    }

    /// Before the handshake, a frame of the type the codec does not write means the server uses
    /// another codec: reports `codecMismatch` and closes with 1003 (unsupported data).
    private mutating func rejectsMismatchedFrame(_ kind: PacketMessageKind, now: MonotonicInstant) -> Bool {
        guard case .connecting = connection else { return false }
        let expected = configuration.codec.messageKind
        emit(.error(.codecMismatch(expected: expected, received: kind)))
        closeLocally(code: 1003, reason: "Codec mismatch: expected \(expected) frames", allowReconnect: true, now: now)
        return true
    }

    /// Transport `id` closed (or failed to open) with `code` and `reason`. Use 1006 when the
    /// connection dropped without a close frame, 1005 when a close frame carried no code.
    /// `error` is the transport's reason for failing (refused, unknown host, HTTP status of a
    /// rejected upgrade, TLS), passed on in `connectAbort` and `closed`.
    ///
    /// A transport that gave up opening because a timer of its own ran out (`error.kind` is
    /// `.timedOut`: TCP connect, proxy, upgrade) ends the attempt exactly as the session's
    /// `connectTimeout` does: 4007 "Client connection establishment timed out", with no `error`.
    /// Its timers and the session's measure the same wait, so which fires first must not show.
    package mutating func transportClosed(
        _ id: TransportID, code: UInt16, reason: String, error: TransportFailure? = nil,
        now: MonotonicInstant
    ) {
        guard connection.transportID == id else { return }
        if !connection.isTransportOpen, error?.kind == .timedOut {
            handleClose(code: SocketClusterCloseCode.connectTimedOut.rawValue, reason: "", allowReconnect: true, keepQueue: false, now: now)
            return
        }
        handleClose(code: code, reason: reason, error: error, allowReconnect: true, keepQueue: false, now: now)
    }

    // MARK: Internals shared by the extensions

    mutating func emit(_ event: SessionEvent) { actions.append(.event(event)) }

    mutating func complete(_ call: CallID, _ result: Result<JSONValue?, PubSubError>) {
        actions.append(.complete(call, result))
    }

    mutating func completeConnect(_ call: CallID, _ result: Result<HandshakeInfo, PubSubError>) {
        actions.append(.completeConnect(call, result))
    }

    mutating func makeCallID() -> CallID {
        nextCallNumber += 1
        return CallID(rawValue: nextCallNumber)
    }

    /// Whether `id` is the current transport and its WebSocket is open.
    func isCurrentAndOpen(_ id: TransportID) -> Bool {
        connection.transportID == id && connection.isTransportOpen
    }

    /// Changes the current link in place (the enum is emptied first, so its storage is not copied).
    mutating func updateLink(_ body: (inout Link) -> Void) {
        switch connection {
        case .closed:
            return
        case .connecting(var link):
            connection = .closed(reconnectAt: nil)
            body(&link)
            connection = .connecting(link)
        case .open(var link, let info):
            connection = .closed(reconnectAt: nil)
            body(&link)
            connection = .open(link, info)
        }
    }

    /// Moves to `new`, reporting the state change when the summary changed.
    mutating func transition(to new: Connection) {
        let old = connection.state
        connection = new
        if old != new.state { emit(.stateChanged(.init(old: old, new: new.state))) }
    }

    mutating func startConnecting(now: MonotonicInstant) {
        guard case .closed = connection else { return }
        nextTransportNumber += 1
        let id = TransportID(rawValue: nextTransportNumber)
        transition(to: .connecting(Link(transport: id, openDeadline: now + configuration.connectTimeout)))
        emit(.connecting(.init(attempt: connectAttempts)))
        actions.append(.openTransport(id: id, url: configuration.address.url, headers: configuration.headers))
    }

    /// Writes one packet now: into the batch when batching (and `batchable`), else as a frame.
    mutating func send(_ packet: Packet, batchable: Bool = true) {
        let bytes = usesJSONCodec ? packet.serializedBytes(keyOrder: .client) : configuration.codec.encode(packet, keyOrder: .client)
        var cid: Int64?
        if case .invoke(_, _, let packetCid) = packet { cid = packetCid }
        send(encoded: bytes, cid: cid, batchable: batchable)
    }

    /// Writes one encoded packet (an invoke's when `cid` is set) as `send(_:batchable:)` does.
    mutating func send(encoded bytes: [UInt8], cid: Int64?, batchable: Bool = true) {
        if batchable, batch != nil {
            batch?.packets.append(bytes)
            if let cid { batch?.cids.append(cid) }
        } else {
            sendMessage(bytes)
        }
    }

    /// Sends one encoded packet or batch in the codec's frame type.
    mutating func sendMessage(_ bytes: [UInt8]) {
        if usesJSONCodec { return actions.append(.sendText(bytes)) }
        switch configuration.codec.messageKind {
        case .text: actions.append(.sendText(bytes))
        case .binary: actions.append(.sendBinary(bytes))
        }
    }

    /// Closes the current connection from this side: the close frame goes out and the session
    /// runs its close sequence at once (the JS client does not wait for the echo either).
    mutating func closeLocally(
        code: UInt16, reason: String, allowReconnect: Bool, keepQueue: Bool = false,
        now: MonotonicInstant
    ) {
        if let link = connection.link { actions.append(.closeTransport(id: link.transport, code: code, reason: reason)) }
        handleClose(code: code, reason: reason, allowReconnect: allowReconnect, keepQueue: keepQueue, now: now)
    }

    /// The close sequence of Protocol.md §11, in the JS order.
    mutating func handleClose(
        code: UInt16, reason: String, error: TransportFailure? = nil, allowReconnect: Bool,
        keepQueue: Bool, now: MonotonicInstant
    ) {
        guard connection.transportID != nil else { return }
        let wasOpen = connection.state == .open
        let kind: BadConnectionKind = wasOpen ? .disconnect : .connectAbort
        let closeCode = SocketClusterCloseCode(code)
        let reportedReason = closeCode.reportedReason(reason) ?? ""
        ping.stop()
        batch = nil

        for call in acks.removeAll() {
            let error = PubSubError.badConnection(event: call.event, kind: kind, code: code, reason: reportedReason)
            switch call.purpose {
            case .user(let id), .authenticate(let id, _): complete(id, .failure(error))
            case .handshake, .subscribe: break
            }
        }
        for channel in channels.suspendAll() {
            let error = PubSubError.badConnection(event: BuiltInEvent.subscribe, kind: kind, code: code, reason: reportedReason)
            for waiter in channel.waiters { complete(waiter, .failure(error)) }
            if channel.state == .subscribed {
                emit(.channelStateChanged(.init(channel: channel.name, old: .subscribed, new: .pending)))
                emit(.unsubscribed(.init(channel: channel.name)))
            }
        }
        let connectCalls = connection.link?.connectCalls ?? []
        transition(to: .closed(reconnectAt: nil))
        if !connectCalls.isEmpty {
            // The WebSocket's own failure when there was one, else the close that ended the attempt.
            let failure: PubSubError = error.map { .transport($0) } ?? .connectionFailed(code: code, reason: reportedReason)
            for call in connectCalls { completeConnect(call, .failure(failure)) }
        }
        let close = SessionEvent.Close(code: closeCode, reason: reportedReason, error: error)
        emit(wasOpen ? .disconnected(close) : .connectAbort(close))
        emit(.closed(close))
        if closeCode.isError {
            emit(.error(.socketProtocol(code: code, reason: reportedReason)))
        }

        let rule = closeCode.reconnect
        let attemptsLeft = configuration.maxReconnectAttempts.map { connectAttempts < $0 } ?? true
        if allowReconnect && configuration.autoReconnect && rule != .never && attemptsLeft {
            let exponent = connectAttempts
            connectAttempts += 1
            let delay = configuration.reconnectPolicy.delay(
                exponent: exponent, immediate: rule == .immediately,
                random: configuration.random())
            connection = .closed(reconnectAt: now + delay)
            emit(.reconnectScheduled(.init(delay: delay, attempt: connectAttempts)))
        } else if !keepQueue {
            failQueued(kind: kind, code: code, reason: reportedReason)
        }
    }

    /// Fails every queued call: invokes complete with `badConnection`, transmits are reported
    /// as errors (never dropped silently).
    mutating func failQueued(kind: BadConnectionKind, code: UInt16, reason: String) {
        for entry in outbound.drain() {
            let error = PubSubError.badConnection(event: entry.item.event, kind: kind, code: code, reason: reason)
            switch entry.item {
            case .invoke(_, _, .user(let id)), .invoke(_, _, .authenticate(let id, _)):
                complete(id, .failure(error))
            case .invoke, .transmit:
                emit(.error(error))
            }
        }
    }

    mutating func fireTimers(now: MonotonicInstant) {
        var rounds = 0
        while let deadline = nextDeadline, deadline <= now, rounds < 16 {
            rounds += 1
            if let openDeadline = connection.openDeadline, openDeadline <= now {
                closeLocally(code: SocketClusterCloseCode.connectTimedOut.rawValue, reason: "", allowReconnect: true, now: now)
                continue
            }
            if ping.hasExpired(now: now) {
                ping.stop()
                closeLocally(code: SocketClusterCloseCode.serverPingTimedOut.rawValue, reason: "", allowReconnect: true, now: now)
                continue
            }
            for call in acks.expire(now: now) {
                switch call.purpose {
                case .handshake:
                    rejectHandshake(
                        .timeout(event: BuiltInEvent.handshake), code: SocketClusterCloseCode.handshakeFailed.rawValue,
                        reason: "TimeoutError: Event response for #handshake event timed out", now: now)
                case .user(let id):
                    complete(id, .failure(.timeout(event: call.event)))
                case .authenticate(let id, let token):
                    // The server may still answer: its verdict then tells the auth state it holds.
                    updateLink { $0.abandonedAuthenticates[call.cid] = AbandonedAuthenticate(call: id, token: token) }
                    complete(id, .failure(.timeout(event: call.event)))
                case .subscribe:
                    break
                }
            }
            while let top = subscribeWaitDeadlines.top, top.deadline <= now {
                _ = subscribeWaitDeadlines.popTop()
                let call = CallID(rawValue: top.key)
                if let channel = subscribeWaitChannels.removeValue(forKey: top.key), channels.removeWaiter(call, from: channel) {
                    complete(call, .failure(.timeout(event: BuiltInEvent.subscribe)))
                }
            }
            for entry in outbound.expire(now: now) {
                switch entry.item {
                case .invoke(_, _, .user(let id)), .invoke(_, _, .authenticate(let id, _)):
                    complete(id, .failure(.timeout(event: entry.item.event)))
                case .invoke, .transmit:
                    emit(.error(.queuedTransmitExpired(event: entry.item.event)))
                }
            }
            if case .closed(let reconnectAt?) = connection, reconnectAt <= now {
                startConnecting(now: now)
            }
        }
    }

    mutating func rejectHandshake(_ error: PubSubError, code: UInt16, reason: String, now: MonotonicInstant) {
        emit(.error(error))
        closeLocally(code: code, reason: "", allowReconnect: true, reasonForEvents: reason, now: now)
    }

    mutating func closeLocally(
        code: UInt16, reason: String, allowReconnect: Bool, reasonForEvents: String,
        now: MonotonicInstant
    ) {
        if let link = connection.link { actions.append(.closeTransport(id: link.transport, code: code, reason: reason)) }
        handleClose(code: code, reason: reasonForEvents, allowReconnect: allowReconnect, keepQueue: false, now: now)
    }
}

import Foundation
