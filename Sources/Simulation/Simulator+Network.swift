@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubClient
import PubSubProtocol

extension Simulator {
    /// A one-way latency for a new message on `link`.
    func latency(of link: SimulatedLink) -> Duration {
        let low = link.minLatency.wholeNanoseconds
        let high = link.maxLatency.wholeNanoseconds
        return .nanoseconds(low + Int64(random.next() % UInt64(high - low + 1)))
    }

    /// The session asked for a transport: a new link, accepted after a connect round trip, or
    /// refused, or left hanging (while the network is bad, or the broker is down).
    func openLink(for client: SimulatedClient, transport: TransportID) {
        let low = random.milliseconds(scenario.minLatencyMillis, scenario.maxLatencyMillis)
        let high = low + random.milliseconds(0, max(1, (scenario.maxLatencyMillis - scenario.minLatencyMillis) / 2))
        let link = SimulatedLink(id: nextLink, client: client.index, transport: transport, minLatency: low, maxLatency: high)
        nextLink += 1
        links[link.id] = link
        client.linkByTransport[transport.rawValue] = link.id
        client.currentTransport = transport.rawValue
        let roundTrip = latency(of: link) * 2
        if networkBad, random.chance(scenario.hangChance) {
            record("client \(client.index) opens \(transport) as link \(link.id): hangs")
            return
        }
        let accept = brokerUp && !(networkBad && random.chance(scenario.refuseChance))
        record("client \(client.index) opens \(transport) as link \(link.id)\(accept ? "" : ": refused")")
        events.schedule(.connectOutcome(link: link.id, accept: accept), at: clock.now + roundTrip)
    }

    func connectOutcome(_ link: SimulatedLink, accept: Bool) {
        guard link.phase == .connecting else { return }
        let client = clients[link.client]
        guard accept, brokerUp else {
            link.phase = .closed
            clientLearnsClose(link, code: 1006, reason: "", error: TransportFailure(.connectionRefused, message: "refused"))
            return
        }
        let connection = BrokerConnectionID(rawValue: nextConnection)
        nextConnection += 1
        link.connection = connection
        link.brokerIncarnation = brokerIncarnation
        link.phase = .open
        link.brokerOpen = true
        link.clientOpen = true
        brokerConnections[connection.rawValue] = link.id
        delivery.connectionOpened(link.id, maxLatency: link.maxLatency)
        record("link \(link.id) open: client \(client.index) \(link.transport) = broker \(connection)")
        brokerInput("open \(connection)") { broker, now, _ in broker.connectionOpened(connection, now: now) }
        clientInput(client.index, "open \(link.transport)") { session, now in session.transportOpened(link.transport, now: now) }
    }

    /// The client session wrote a message on its current transport.
    func clientSend(_ message: SimulatedLink.Message, from client: SimulatedClient) {
        guard let linkID = client.currentLink, let link = links[linkID], link.clientOpen else {
            fail(Violation(.protocolConduct, at: elapsed, "client \(client.index) sends a message with no open transport"))
            return
        }
        statistics.messages += 1
        guard link.phase == .open else { return }  // broken underneath; the session has not noticed yet
        link.up.append(message, at: clock.now + latency(of: link))
        noteAuthCrossing(link)
        scheduleDelivery(link, toBroker: true)
    }

    /// Marks `link` when auth changes travel both ways at once (`SimulatedLink.authCrossed`).
    func noteAuthCrossing(_ link: SimulatedLink) {
        guard !link.authCrossed, link.up.authChangesInFlight > 0, link.down.authChangesInFlight > 0 else { return }
        link.authCrossed = true
        statistics.authCrossings += 1
        record("link \(link.id): #setAuthToken and #removeAuthToken cross")
    }

    /// The client session closed one of its transports.
    func clientClosesLink(_ client: SimulatedClient, transport: TransportID, code: UInt16, reason: String) {
        guard let linkID = client.linkByTransport.removeValue(forKey: transport.rawValue), let link = links[linkID] else {
            fail(Violation(.protocolConduct, at: elapsed, "client \(client.index) closes \(transport), which it no longer has"))
            return
        }
        if client.currentTransport == transport.rawValue { client.currentTransport = nil }
        switch link.phase {
        case .connecting:
            link.phase = .closed
        case .open:
            guard link.clientOpen else {
                fail(Violation(.protocolConduct, at: elapsed, "client \(client.index) closes \(transport) after it closed"))
                return
            }
            link.clientOpen = false
            link.up.append(.close(code: code, reason: reason), at: clock.now + latency(of: link))
            scheduleDelivery(link, toBroker: true)
        case .closed:
            break
        }
        forgetIfDone(link)
    }

    /// The broker wrote a message or a close on `connection`.
    func brokerSend(_ message: SimulatedLink.Message, on connection: BrokerConnectionID, what: String) {
        guard let linkID = brokerConnections[connection.rawValue], let link = links[linkID] else {
            fail(Violation(.protocolConduct, at: elapsed, "broker \(what) on \(connection), which it has closed"))
            return
        }
        statistics.messages += 1
        if case .close(let code, let reason) = message {
            record("broker closes \(connection) (link \(link.id)) with \(code) \(reason)")
            check(ConductChecker.closeCode(code, sentBy: "broker", at: elapsed))
            brokerConnections[connection.rawValue] = nil
            link.brokerOpen = false
            delivery.brokerRemoved(link.id, channel: nil, at: elapsed)
        }
        if link.phase == .open {
            link.down.append(message, origin: brokerInputOrigin, at: clock.now + latency(of: link))
            noteAuthCrossing(link)
            scheduleDelivery(link, toBroker: false)
        }
        forgetIfDone(link)
    }

    func scheduleDelivery(_ link: SimulatedLink, toBroker: Bool) {
        let direction = toBroker ? link.up : link.down
        guard !direction.scheduled, let at = direction.nextArrival else { return }
        if toBroker { link.up.scheduled = true } else { link.down.scheduled = true }
        events.schedule(.deliver(link: link.id, toBroker: toBroker), at: max(at, clock.now))
    }

    /// The head message of one direction of `link` arrives, if it is due.
    func deliver(_ link: SimulatedLink, toBroker: Bool) {
        if toBroker { link.up.scheduled = false } else { link.down.scheduled = false }
        guard link.phase == .open else { return }
        let direction = toBroker ? link.up : link.down
        guard let at = direction.nextArrival else { return }
        guard at <= clock.now else { return scheduleDelivery(link, toBroker: toBroker) }
        let parcel = toBroker ? link.up.popHead() : link.down.popHead()
        record("link \(link.id) \(toBroker ? "up" : "down"): \(Self.describe(parcel.message))")
        if toBroker {
            brokerInputOrigin = link.id
            deliverToBroker(parcel.message, on: link)
            brokerInputOrigin = 0
        } else {
            clientInputOrigin = parcel.origin
            deliverToClient(parcel.message, on: link)
            clientInputOrigin = 0
        }
        if link.phase == .open { scheduleDelivery(link, toBroker: toBroker) }
        forgetIfDone(link)
    }

    private func deliverToBroker(_ message: SimulatedLink.Message, on link: SimulatedLink) {
        guard link.brokerOpen, link.brokerIncarnation == brokerIncarnation, let connection = link.connection else { return }
        switch message {
        case .text(let utf8):
            brokerInput("text on \(connection)") { broker, now, wall in
                broker.receivedText(String(decoding: utf8, as: UTF8.self), from: connection, now: now, wallClock: wall)
            }
        case .binary(let bytes):
            brokerInput("binary on \(connection)") { broker, _, wall in broker.receivedBinary(bytes, from: connection, wallClock: wall) }
        case .close(let code, let reason):
            brokerLearnsClose(link, code: code, reason: reason)
        }
    }

    private func deliverToClient(_ message: SimulatedLink.Message, on link: SimulatedLink) {
        guard link.clientOpen else { return }
        let transport = link.transport
        switch message {
        case .text(let utf8):
            let text = String(decoding: utf8, as: UTF8.self)
            clientInput(link.client, "text on \(transport)") { session, now in session.transportReceived(text: text, from: transport, now: now) }
        case .binary(let bytes):
            clientInput(link.client, "binary on \(transport)") { session, now in
                session.transportReceived(binary: bytes, from: transport, now: now)
            }
        case .close(let code, let reason):
            // The close handshake's answer: the peer's close frame ends the connection for the client.
            link.phase = .closed
            clientLearnsClose(link, code: code, reason: reason, error: nil)
        }
    }

    /// The broker finds `link` closed (a close frame, a reset it saw): it forgets the session.
    func brokerLearnsClose(_ link: SimulatedLink, code: UInt16, reason: String) {
        guard link.brokerOpen, link.brokerIncarnation == brokerIncarnation, let connection = link.connection else { return }
        link.brokerOpen = false
        brokerConnections[connection.rawValue] = nil
        delivery.brokerRemoved(link.id, channel: nil, at: elapsed)
        record("broker learns \(connection) (link \(link.id)) closed: \(code)")
        brokerInput("close of \(connection)") { broker, _, _ in broker.connectionClosed(connection, code: code, reason: reason) }
        forgetIfDone(link)
    }

    /// The client's transport reports `link` closed.
    func clientLearnsClose(_ link: SimulatedLink, code: UInt16, reason: String, error: TransportFailure?) {
        let client = clients[link.client]
        guard client.linkByTransport[link.transport.rawValue] == link.id else { return }
        client.linkByTransport[link.transport.rawValue] = nil
        if client.currentTransport == link.transport.rawValue { client.currentTransport = nil }
        link.clientOpen = false
        let transport = link.transport
        record("client \(link.client) learns \(transport) (link \(link.id)) closed: \(code)")
        clientInput(link.client, "close of \(transport)") { session, now in
            session.transportClosed(transport, code: code, reason: reason, error: error, now: now)
        }
        if client.wantsConnected, client.session.state == .closed, client.session.reconnectDeadline == nil {
            record("client \(link.client) stays closed; its application accepts that")
            client.wantsConnected = false
        }
        forgetIfDone(link)
    }

    /// Breaks `link` underneath both ends: what is in flight is lost. The client hears of it now
    /// unless `clientHears` is false (it must find out by its ping timeout); the broker now, after
    /// `brokerDelay`, or never (nil: its pong timeout must find it).
    func reset(_ link: SimulatedLink, clientHears: Bool, brokerDelay: Duration?) {
        guard link.phase != .closed else { return }
        let wasOpen = link.phase == .open
        link.phase = .closed
        link.up.drop()
        link.down.drop()
        delivery.brokerRemoved(link.id, channel: nil, at: elapsed)
        record("link \(link.id) reset (client hears: \(clientHears), broker after: \(brokerDelay.map { "\($0)" } ?? "never"))")
        if wasOpen, let brokerDelay {
            if brokerDelay == .zero {
                brokerLearnsClose(link, code: 1006, reason: "")
            } else {
                events.schedule(.brokerLearnsClose(link: link.id), at: clock.now + brokerDelay)
            }
        }
        if clientHears {
            clientLearnsClose(link, code: 1006, reason: "", error: TransportFailure(.connectionLost, message: "reset"))
        }
        forgetIfDone(link)
    }

    /// A message for the trace: its first bytes as text (binary as hex), pings and pongs by name.
    static func describe(_ message: SimulatedLink.Message) -> String {
        switch message {
        case .text(let utf8):
            if utf8.isEmpty || utf8 == Array("#1".utf8) || utf8 == Array("#2".utf8) { return "ping/pong" }
            let text = String(decoding: utf8.prefix(120), as: UTF8.self)
            return utf8.count > 120 ? text + "…" : text
        case .binary(let bytes):
            return "binary " + bytes.prefix(40).map { String($0, radix: 16) }.joined(separator: " ") + (bytes.count > 40 ? "…" : "")
        case .close(let code, let reason):
            return "close \(code) \(reason)"
        }
    }

    /// Drops a link neither end uses any more.
    func forgetIfDone(_ link: SimulatedLink) {
        guard clients[link.client].linkByTransport[link.transport.rawValue] != link.id, !link.brokerOpen else { return }
        link.phase = .closed
        links[link.id] = nil
    }
}
