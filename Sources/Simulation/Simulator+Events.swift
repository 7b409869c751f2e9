@_spi(Cores) import MonotonicTime
import Foundation
import PubSubBroker
import PubSubClient

extension Simulator {
    func handle(_ event: Event) {
        switch event {
        case .deliver(let id, let toBroker):
            if let link = links[id] { deliver(link, toBroker: toBroker) }
        case .connectOutcome(let id, let accept):
            if let link = links[id] { connectOutcome(link, accept: accept) }
        case .brokerLearnsClose(let id):
            if let link = links[id] { brokerLearnsClose(link, code: 1006, reason: "") }
        case .releaseHold(let id, let toBroker):
            if let link = links[id] { releaseHold(link, toBroker: toBroker) }
        case .clientOperation(let index):
            guard !isQuiet else { return }
            clientOperation(clients[index])
            events.schedule(.clientOperation(index), at: clock.now + nextInterval(scenario.clientOpInterval))
        case .serverOperation:
            guard !isQuiet else { return }
            serverOperation()
            events.schedule(.serverOperation, at: clock.now + nextInterval(scenario.serverOpInterval))
        case .fault:
            guard !isQuiet else { return }
            injectFault()
            events.schedule(.fault, at: clock.now + nextInterval(scenario.faultInterval))
        case .brokerBack:
            brokerUp = true
            record("broker is back (incarnation \(brokerIncarnation))")
        case .answerProcedure(let connection, let cid, let data, let incarnation):
            guard incarnation == brokerIncarnation else { return }
            brokerInput("answer on \(connection)") { broker, _, _ in broker.respond(to: connection, cid: cid, result: .success(data)) }
        case .answerRequest(let index, let request):
            clientInput(index, "answer to \(request)") { session, now in try? session.respond(to: request, with: .success(nil), now: now) }
        case .checkpoint:
            checkMemory()
            events.schedule(.checkpoint, at: clock.now + .seconds(5))
        case .quiet:
            beginQuiet()
        case .convergence:
            checkConvergence()
        case .quiescence:
            checkMemory()
            checkQuiescence()
            finished = true
        }
    }

    /// An exponentially distributed wait with the given mean (at least a millisecond).
    func nextInterval(_ mean: Duration) -> Duration {
        let draw = -log(max(1e-9, 1 - random.unit()))
        return .milliseconds(max(1, Int64(Double(mean.wholeNanoseconds) / 1e6 * draw)))
    }

    /// Faults and the workload stop: holds and stalls are lifted, the network is good, the broker is up.
    func beginQuiet() {
        isQuiet = true
        networkBad = false
        record("faults and workload stop")
        for id in links.keys.sorted() {
            guard let link = links[id] else { continue }
            if link.up.held { releaseHold(link, toBroker: true) }
            if link.down.held { releaseHold(link, toBroker: false) }
        }
    }
}
