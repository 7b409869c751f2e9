@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubClient
import PubSubProtocol

extension Simulator {
    /// Bounded memory: every queue within its limit, and no state left behind by connections
    /// that are gone (run every few simulated seconds and at the end).
    func checkMemory() {
        for client in clients {
            let session = client.session
            if session.queuedCallCount > scenario.maxQueuedMessages {
                fail(
                    Violation(
                        .boundedMemory, at: elapsed,
                        "client \(client.index) queues \(session.queuedCallCount) calls, over its limit of \(scenario.maxQueuedMessages)"))
            }
            // In flight: the caller's open calls, a subscribe per channel, the handshake.
            let bound = ledger.openCount(client.index) + scenario.channels.count + 1
            if session.pendingCallCount > bound {
                fail(
                    Violation(
                        .boundedMemory, at: elapsed,
                        "client \(client.index) has \(session.pendingCallCount) calls in flight; at most \(bound) can be"))
            }
            if client.linkByTransport.count > 1 {
                fail(Violation(.boundedMemory, at: elapsed, "client \(client.index) keeps \(client.linkByTransport.count) transports open"))
            }
        }
        if broker.sessionCount != brokerConnections.count {
            fail(
                Violation(
                    .boundedMemory, at: elapsed,
                    "broker holds \(broker.sessionCount) sessions for \(brokerConnections.count) open connections"))
        }
        var subscriptions = 0
        for raw in brokerConnections.keys {
            let connection = BrokerConnectionID(rawValue: raw)
            subscriptions += broker.subscriptions(of: connection).count
            if broker.pendingInvokeCount(of: connection) > ledger.openCount(CallLedger.broker) {
                fail(Violation(.boundedMemory, at: elapsed, "broker keeps more invokes on \(connection) than are open"))
            }
        }
        let subscribers = scenario.channels.reduce(0) { $0 + broker.subscriberCount(of: $1) }
        let channelsInUse = scenario.channels.filter { broker.subscriberCount(of: $0) > 0 }.count
        if subscribers != subscriptions || broker.channelCount != channelsInUse {
            fail(
                Violation(
                    .boundedMemory, at: elapsed,
                    "broker channel table: \(subscribers) subscribers in \(broker.channelCount) entries, but its sockets hold "
                        + "\(subscriptions) subscriptions in \(channelsInUse) channels"))
        }
    }

    /// After faults and workload stopped and the convergence bound passed: every client that
    /// wants to be connected is, on a socket the broker holds, with the same subscriptions and
    /// auth state; every other client is closed and unknown to the broker.
    func checkConvergence() {
        record("convergence check")
        for client in clients {
            let index = client.index
            let session = client.session
            guard client.wantsConnected else {
                if session.state != .closed {
                    fail(Violation(.convergence, at: elapsed, "client \(index) does not want a connection but is \(session.state)"))
                }
                if let link = client.currentLink, links[link]?.brokerOpen == true {
                    fail(Violation(.convergence, at: elapsed, "client \(index) is closed but the broker still holds its socket"))
                }
                continue
            }
            guard session.state == .open, let linkID = client.currentLink, let link = links[linkID], let connection = link.connection
            else {
                fail(Violation(.convergence, at: elapsed, "client \(index) is \(session.state), not open, \(scenario.convergenceBound) after faults stopped"))
                continue
            }
            guard link.brokerOpen, let info = broker.socketInfo(connection) else {
                fail(Violation(.convergence, at: elapsed, "client \(index) is open on link \(linkID), which the broker does not hold"))
                continue
            }
            let mine = Set(session.subscriptions(includePending: false))
            let brokers = Set(broker.subscriptions(of: connection))
            if mine != brokers {
                fail(
                    Violation(
                        .convergence, at: elapsed,
                        "client \(index) is subscribed to \(mine.sorted()), the broker has it in \(brokers.sorted())"))
            }
            let wanted = Set(session.subscriptions(includePending: true))
            if wanted != client.wanted {
                fail(
                    Violation(
                        .convergence, at: elapsed,
                        "client \(index) holds channels \(wanted.sorted()), its application wants \(client.wanted.sorted())"))
            }
            // A token that expired lately may not be noticed yet: the broker checks expiry when the
            // client's next message (at least its pong) arrives, and its `#removeAuthToken` then
            // takes a trip. Past that bound both sides must have dropped it.
            let wall = clock.wallClock.timeIntervalSince1970
            let grace = Double((scenario.brokerPingInterval + .milliseconds(scenario.maxLatencyMillis * 4) + .seconds(1)).wholeNanoseconds) / 1e9
            func lately(_ token: [String: JSONValue]?) -> Bool {
                guard let exp = token?["exp"]?.intValue else { return false }
                return Double(exp) <= wall && wall < Double(exp) + grace
            }
            let expired = lately(info.authToken) || lately(session.auth.token?.objectValue)
            let agree =
                (session.auth.state == .authenticated) == info.isAuthenticated
                && (!info.isAuthenticated || session.auth.signedToken == info.signedAuthToken)
            if !agree, !expired, !link.authCrossed {
                func exp(_ token: [String: JSONValue]?) -> String {
                    token?["exp"]?.intValue.map { "token exp wall+\(Int($0) - Int(wall)) s" } ?? "no token"
                }
                fail(
                    Violation(
                        .convergence, at: elapsed,
                        "client \(index) is \(session.auth.state) (\(exp(session.auth.token?.objectValue))), the broker has its "
                            + "socket \(info.isAuthenticated ? "authenticated" : "unauthenticated") (\(exp(info.authToken)))"
                            + (session.auth.signedToken != info.signedAuthToken ? ", with another token" : "")))
            }
        }
    }

    /// The end: every call completed, every acknowledged publication reached its subscribers.
    func checkQuiescence() {
        record("quiescence check")
        for violation in ledger.unfinished(at: elapsed) { fail(violation) }
        for violation in delivery.finish(at: elapsed) { fail(violation) }
    }
}
