@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubProtocol

extension Simulator {
    /// Carries out the broker core's actions in order, as `BrokerEngine.execute` does: the
    /// step's actions are taken first; an authorization is decided at once and its outcome's
    /// actions run before the rest of the list. The simulated application answers procedures and
    /// takes transmits; an answer it gives at once runs after the step's other actions.
    func drainBroker() {
        var current = takeBrokerActions()
        var held: [ArraySlice<BrokerAction>] = []
        while true {
            guard let action = current.popFirst() else {
                if let next = held.popLast() {
                    current = next
                    continue
                }
                current = takeBrokerActions()
                if current.isEmpty { break }
                continue
            }
            if case .authorize(let connection, let request) = action {
                authorize(request, on: connection)
                held.append(current)
                current = takeBrokerActions()
                continue
            }
            perform(action)
        }
    }

    private func takeBrokerActions() -> ArraySlice<BrokerAction> {
        var actions: [BrokerAction] = []
        while let action = broker.nextAction() { actions.append(action) }
        return actions[...]
    }

    /// The application's authorization hooks: they allow, except that while faults run they
    /// refuse now and then (a handshake with a close code that allows a reconnect).
    private func authorize(_ request: BrokerAuthorizationRequest, on connection: BrokerConnectionID) {
        let asked: Bool
        switch request {
        case .handshake: asked = scenario.authorizesHandshake
        case .subscribe: asked = scenario.authorizesSubscribe
        case .publish: asked = scenario.authorizesPublish
        }
        if !asked {
            fail(Violation(.protocolConduct, at: elapsed, "broker asks a hook the application did not set, on \(connection)"))
        }
        let refuse = !isQuiet && random.chance(scenario.hookRefuseChance)
        let wall = clock.wallClock
        switch request {
        case .handshake:
            record("broker hook: handshake on \(connection) \(refuse ? "refused" : "allowed")")
            let rejection = refuse ? BrokerHandshakeRejection(code: SocketClusterCloseCode(4008), reason: "not now") : nil
            broker.handshakeDecided(connection, rejection: rejection, wallClock: wall)
        case .subscribe(let subscribe):
            record("broker hook: subscribe \(subscribe.channel) on \(connection) \(refuse ? "refused" : "allowed")")
            broker.authorizationDecided(connection, rejection: refuse ? RemoteError(name: "Refused", message: "no") : nil, wallClock: wall)
        case .publish(let publish):
            record("broker hook: publish to \(publish.channel) on \(connection) \(refuse ? "refused" : "allowed")")
            broker.authorizationDecided(connection, rejection: refuse ? RemoteError(name: "Refused", message: "no") : nil, wallClock: wall)
        }
    }

    private func perform(_ action: BrokerAction) {
        switch action {
        case .send(let connection, let utf8):
            brokerSend(.text(utf8), on: connection, what: "sends a message")
        case .sendBinary(let connection, let bytes):
            brokerSend(.binary(bytes), on: connection, what: "sends a message")
        case .close(let connection, let code, let reason):
            brokerSend(.close(code: code, reason: reason), on: connection, what: "closes")
        case .authorize:
            break  // Decided by `drainBroker`, which needs the rest of the list.
        case .callProcedure(let call):
            callProcedure(call)
        case .deliverMessage(let message):
            record("broker receives transmit \(message.receiver) on \(message.connection)")
        case .completeInvoke(let token, let result):
            let outcome: String
            switch result {
            case .success: outcome = "ok"
            case .failure(let failure): outcome = "\(failure)"
            }
            record("broker invoke #\(token) completes: \(outcome)")
            check(ledger.completed(CallLedger.broker, token, outcome: outcome, at: elapsed))
        case .channelLimitReached(let connection, let channel, let limit):
            record("broker: \(connection) reached the channel limit \(limit) with \(channel)")
        case .channelNameTooLong, .subscriptionBytesLimitReached:
            break
        case .socketConnected(let connection, let info):
            record("broker: \(connection) connected as \(info.id), authenticated: \(info.isAuthenticated)")
        case .socketDisconnected(let connection, _, let code, _):
            record("broker: \(connection) disconnected with \(code)")
        }
    }

    /// The application's procedures: `echo` answers its data (at once or later), `fail` answers
    /// an error, `never` is not answered (the client's call must time out).
    private func callProcedure(_ call: BrokerInboundCall) {
        switch call.procedure {
        case "echo":
            if random.chance(0.7) {
                broker.respond(to: call.connection, cid: call.cid, result: .success(call.data))
            } else {
                events.schedule(
                    .answerProcedure(connection: call.connection, cid: call.cid, data: call.data, incarnation: brokerIncarnation),
                    at: clock.now + random.milliseconds(0, 3_000))
            }
        case "fail":
            broker.respond(to: call.connection, cid: call.cid, result: .failure(RemoteError(name: "SimulatedError", message: "refused")))
        default:
            break
        }
    }
}
