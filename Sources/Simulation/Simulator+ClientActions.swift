@_spi(Cores) import MonotonicTime
import PubSubClient
import PubSubProtocol

extension Simulator {
    /// Carries out a client session's actions in order, as `SessionDriver.perform` does.
    func drainClient(_ client: SimulatedClient) {
        while let action = client.session.nextAction() {
            perform(action, for: client)
        }
    }

    private func perform(_ action: SessionAction, for client: SimulatedClient) {
        let index = client.index
        switch action {
        case .openTransport(let id, _, _):
            openLink(for: client, transport: id)
        case .sendText(let utf8):
            clientSend(.text(utf8), from: client)
        case .sendBinary(let bytes):
            clientSend(.binary(bytes), from: client)
        case .closeTransport(let id, let code, let reason):
            record("client \(index) closes \(id) with \(code) \(reason)")
            check(ConductChecker.closeCode(code, sentBy: "client \(index)", at: elapsed))
            clientClosesLink(client, transport: id, code: code, reason: reason)
        case .complete(let id, let result):
            completed(client, id.rawValue, outcome: Self.describe(result))
            if let publish = client.publishCalls.removeValue(forKey: id.rawValue), case .success = result {
                delivery.acknowledged(
                    .init(
                        channel: publish.channel, publisher: index, sequence: publish.sequence, calledAt: publish.calledAt,
                        ackedAt: elapsed))
            }
        case .completeConnect(let id, let result):
            let outcome: String
            switch result {
            case .success: outcome = "connected"
            case .failure(let error): outcome = "\(error.code)"
            }
            completed(client, id.rawValue, outcome: outcome)
        case .saveToken(_, let token):
            client.storedToken = token
        case .removeToken:
            client.storedToken = nil
        case .event(let event):
            handle(event, of: client)
        }
    }

    private func completed(_ client: SimulatedClient, _ number: UInt64, outcome: String) {
        record("client \(client.index) call #\(number) completes: \(outcome)")
        check(ledger.completed(client.index, number, outcome: outcome, at: elapsed))
    }

    static func describe(_ result: Result<JSONValue?, PubSubError>) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error): "\(error.code)"
        }
    }

    private func handle(_ event: SessionEvent, of client: SimulatedClient) {
        let index = client.index
        switch event {
        case .publication(let publication):
            statistics.publicationsDelivered += 1
            guard let members = publication.data?.objectValue, let publisher = members["p"]?.intValue,
                let sequence = members["s"]?.intValue
            else {
                fail(Violation(.delivery, at: elapsed, "client \(index) received a publication the workload never made"))
                return
            }
            record("client \(index) receives \(publisher)/\(sequence) on \(publication.channel)")
            check(
                delivery.delivered(
                    to: index, channel: publication.channel, publisher: Int(publisher), sequence: Int(sequence),
                    via: clientInputOrigin, subscribed: client.wanted.contains(publication.channel), at: elapsed))
        case .subscribeRequested(let subscription):
            delivery.subscribeRequested(index, channel: subscription.channel, at: elapsed)
        case .subscribed(let subscription):
            record("client \(index) subscribed to \(subscription.channel)")
            if let link = client.currentLink {
                delivery.subscribed(index, channel: subscription.channel, link: link, at: elapsed)
            } else {
                fail(Violation(.protocolConduct, at: elapsed, "client \(index) reports \(subscription.channel) subscribed with no transport"))
            }
        case .unsubscribed(let unsubscription):
            record("client \(index) unsubscribed from \(unsubscription.channel)")
            delivery.ended(index, channel: unsubscription.channel, at: elapsed)
        case .kickedOut(let kickOut):
            record("client \(index) kicked out of \(kickOut.channel)")
            client.wanted.remove(kickOut.channel)
            delivery.ended(index, channel: kickOut.channel, at: elapsed)
        case .subscribeFailed(let failure):
            record("client \(index) subscribe to \(failure.channel) failed (\(failure.error.code)), retry: \(failure.willRetry)")
            if !failure.willRetry { client.wanted.remove(failure.channel) }
        case .request(let request):
            answer(request, of: client)
        case .closed(let close):
            record("client \(index) closed: \(close.code) \(close.reason)")
        case .connected(let info):
            record("client \(index) connected as \(info.id), authenticated: \(info.isAuthenticated)")
        case .stateChanged, .connecting, .connectAbort, .disconnected, .channelStateChanged, .message, .raw:
            break
        case .reconnectScheduled(let schedule):
            record("client \(index) reconnects in \(schedule.delay)")
        case .error(let error):
            record("client \(index) error: \(error.code)")
        case .authStateChanged(let change):
            record("client \(index) auth \(change.old) -> \(change.new)")
        case .authenticated, .deauthenticated, .authTokenExpiring, .authTokenRemoved:
            break
        }
    }

    /// The application's procedures: `ask` is answered (at once or a little later), `ignored` never.
    private func answer(_ request: SessionEvent.Request, of client: SimulatedClient) {
        guard request.event == "ask" else { return }
        if random.chance(0.7) {
            try? client.session.respond(to: request.id, with: .success(request.data), now: clock.now)
        } else {
            events.schedule(.answerRequest(client: client.index, request: request.id), at: clock.now + random.milliseconds(0, 3_000))
        }
    }
}
