@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubClient
import PubSubProtocol

/// The random workload: what each client's application and the server's do, through the same
/// session and broker commands the public faces use.
extension Simulator {
    func clientOperation(_ client: SimulatedClient) {
        let index = client.index
        if scenario.cancelsCalls, random.chance(0.05) {
            let open = ledger.openCalls(of: index)
            if !open.isEmpty {
                let call = CallID(rawValue: open[random.int(0...(open.count - 1))])
                record("client \(index) cancels call #\(call.rawValue)")
                clientInput(index, "cancel") { session, now in session.cancel(call, now: now) }
                return
            }
        }
        let channel = scenario.channels[random.int(0...(scenario.channels.count - 1))]
        guard client.wantsConnected else {
            // A closed client either connects or changes its channels (which sends nothing).
            switch random.int(0...9) {
            case 0...6: connect(client)
            case 7: subscribe(client, channel)
            default: unsubscribe(client, channel)
            }
            return
        }
        switch random.int(0...99) {
        case 0...2:
            record("client \(index) disconnects")
            client.wantsConnected = false
            clientInput(index, "disconnect") { session, now in session.disconnect(code: 1000, reason: "bye", now: now) }
        case 3...14: subscribe(client, channel)
        case 15...21: unsubscribe(client, channel)
        case 22...41: publish(client, channel, acknowledged: true)
        case 42...51: publish(client, channel, acknowledged: false)
        case 52...63: invoke(client, ["echo", "echo", "fail", "never"][random.int(0...3)])
        case 64...69:
            clientInput(index, "transmit") { session, now in try? session.transmit("note", data: .int(1), now: now) }
        case 70...75:
            let token = random.chance(0.8) ? client.issuedToken ?? "not-a-token" : "not-a-token"
            record("client \(index) authenticates")
            var call: CallID?
            clientInput(index, "authenticate") { session, now in call = session.authenticate(token, now: now) }
            made(client, call, "authenticate")
        case 76...79:
            record("client \(index) deauthenticates")
            clientInput(index, "deauthenticate") { session, now in session.deauthenticate(now: now) }
        case 80...84:
            // A batch of publishes and invokes, sent as one message.
            record("client \(index) batches")
            clientInput(index, "start batch") { session, _ in session.startBatch() }
            for _ in 0..<random.int(1...4) {
                if random.chance(0.5) { publish(client, channel, acknowledged: true) } else { invoke(client, "echo") }
            }
            clientInput(index, "flush batch") { session, _ in session.flushBatch() }
        case 85...86:
            record("client \(index) reconnects")
            clientInput(index, "reconnect") { session, now in session.reconnect(now: now) }
        default:
            connect(client)
        }
    }

    private func connect(_ client: SimulatedClient) {
        record("client \(client.index) connects")
        client.wantsConnected = true
        var call: CallID?
        clientInput(client.index, "connect") { session, now in call = session.connect(now: now) }
        made(client, call, "connect")
    }

    private func subscribe(_ client: SimulatedClient, _ channel: String) {
        let options = SubscriptionOptions(waitForAuth: random.chance(0.25))
        record("client \(client.index) subscribes to \(channel)\(options.waitForAuth ? " (waitForAuth)" : "")")
        client.wanted.insert(channel)
        if random.chance(0.5) {
            clientInput(client.index, "subscribe") { session, now in session.subscribe(channel, options: options, now: now) }
        } else {
            var call: CallID?
            clientInput(client.index, "subscribe with ack") { session, now in
                call = session.subscribeWithAck(channel, options: options, now: now)
            }
            made(client, call, "subscribe \(channel)")
        }
    }

    private func unsubscribe(_ client: SimulatedClient, _ channel: String) {
        record("client \(client.index) unsubscribes from \(channel)")
        client.wanted.remove(channel)
        if random.chance(0.5) {
            clientInput(client.index, "unsubscribe") { session, now in session.unsubscribe(channel, now: now) }
        } else {
            var call: CallID?
            clientInput(client.index, "unsubscribe with ack") { session, now in call = session.unsubscribeWithAck(channel, now: now) }
            made(client, call, "unsubscribe \(channel)")
        }
    }

    private func publish(_ client: SimulatedClient, _ channel: String, acknowledged: Bool) {
        let sequence = client.nextSequence
        client.nextSequence += 1
        let data: JSONValue = .object(["p": .int(Int64(client.index)), "s": .int(Int64(sequence))])
        record("client \(client.index) publishes \(client.index)/\(sequence) to \(channel)\(acknowledged ? " with ack" : "")")
        if acknowledged {
            var call: CallID?
            clientInput(client.index, "publish with ack") { session, now in call = session.publishWithAck(channel, data: data, now: now) }
            if let call { client.publishCalls[call.rawValue] = (channel, sequence, elapsed) }
            made(client, call, "publish \(client.index)/\(sequence)")
        } else {
            clientInput(client.index, "publish") { session, now in try? session.publish(channel, data: data, now: now) }
        }
    }

    private func invoke(_ client: SimulatedClient, _ procedure: String) {
        record("client \(client.index) invokes \(procedure)")
        var call: CallID?
        clientInput(client.index, "invoke") { session, now in call = session.invoke(procedure, data: .string("x"), now: now) }
        made(client, call, "invoke \(procedure)")
    }

    /// Registers a call the client made; its completion may already have been carried out.
    private func made(_ client: SimulatedClient, _ call: CallID?, _ what: String) {
        guard let call else { return }
        check(ledger.made(client.index, call.rawValue, what: what, at: elapsed))
    }

    // MARK: The server's application

    func serverOperation() {
        let channel = scenario.channels[random.int(0...(scenario.channels.count - 1))]
        if random.chance(0.35) {
            let sequence = serverSequence
            serverSequence += 1
            record("broker publishes -1/\(sequence) to \(channel)")
            brokerInput("publish") { broker, _, _ in
                broker.publish(channel: channel, data: .object(["p": .int(-1), "s": .int(Int64(sequence))]))
            }
            delivery.acknowledged(.init(channel: channel, publisher: -1, sequence: sequence, calledAt: elapsed, ackedAt: elapsed))
            return
        }
        let sockets = broker.connectedSockets.sorted { $0.rawValue < $1.rawValue }
        guard !sockets.isEmpty else { return }
        let connection = sockets[random.int(0...(sockets.count - 1))]
        guard let linkID = brokerConnections[connection.rawValue], let link = links[linkID] else {
            fail(Violation(.boundedMemory, at: elapsed, "broker holds \(connection) open, which the network closed"))
            return
        }
        switch random.int(0...9) {
        case 0...2:
            let wall = Int64(clock.wallClock.timeIntervalSince1970)
            let expiry = wall + Int64(random.int(5...600))
            record("broker logs \(connection) in until +\(expiry - wall)s")
            var token: String?
            brokerInput("set auth token") { broker, _, wall in
                token = broker.setAuthToken(on: connection, payload: ["user": .string("u\(link.client)"), "exp": .int(expiry)], wallClock: wall)
            }
            if let token { clients[link.client].issuedToken = token }
        case 3:
            record("broker deauthenticates \(connection)")
            brokerInput("deauthenticate") { broker, _, _ in broker.deauthenticate(connection) }
        case 4...5:
            let event = random.chance(0.8) ? "ask" : "ignored"
            var token: UInt64?
            record("broker invokes \(event) on \(connection)")
            brokerInput("invoke") { broker, now, _ in
                token = broker.invoke(on: connection, event: event, data: .int(7), ackTimeout: nil, now: now)
            }
            if let token { check(ledger.made(CallLedger.broker, token, what: "invoke \(event) on \(connection)", at: elapsed)) }
        case 6:
            let which: String? = random.chance(0.5) ? channel : nil
            record("broker kicks \(connection) out of \(which ?? "every channel")")
            delivery.brokerRemoved(link.id, channel: which, at: elapsed)
            brokerInput("kick out") { broker, _, _ in broker.kickOut(connection, channel: which, message: "out") }
        case 7:
            let code: UInt16 = [1000, 4000, 4001, 4100, 4500, 1011][random.int(0...5)]
            record("broker disconnects \(connection) with \(code)")
            brokerInput("disconnect") { broker, _, _ in broker.disconnect(connection, code: code, reason: "server says bye") }
        default:
            record("broker transmits to \(connection)")
            brokerInput("transmit") { broker, _, _ in broker.transmit(to: connection, event: "news", data: .int(3)) }
        }
    }
}
