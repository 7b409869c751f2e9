@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubProtocol

extension Simulator {
    /// Carries out the broker core's actions in order, as `BrokerEngine.execute` does; the
    /// simulated application answers procedures and takes transmits.
    func drainBroker() {
        while let action = broker.nextAction() {
            perform(action)
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
        case .authorize(let connection, _):
            // No authorization hook is set, so the core never asks.
            fail(Violation(.protocolConduct, at: elapsed, "broker asks to authorize on \(connection) with no hook set"))
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
