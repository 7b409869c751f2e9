@_spi(Cores) import MonotonicTime
import Foundation
import PubSubBroker
import PubSubClient
import PubSubProtocol

/// Runs one broker core and several client session cores against a simulated network and clock,
/// every choice drawn from one seeded generator, and checks the invariants as it goes.
///
/// The cores are the real ones (`ClientSession`, `BrokerCore`), driven the way their drivers
/// drive them: an input, then every queued action carried out in order (`nextAction()` until
/// nil), and `timeElapsed(now:)` when their `nextDeadline` comes. Time jumps from one event to
/// the next. The network carries SocketCluster messages (the codec's frames), not WebSocket
/// bytes: `WebSocketStateMachine` is not in the loop.
///
/// Phases: for `SimulationOptions.activeTime` the workload runs and faults strike; then both
/// stop, and after the scenario's convergence bound every client must agree with the broker;
/// after the quiescence bound every call must have completed and every acknowledged publication
/// must have reached its continuously subscribed clients.
package final class Simulator {
    enum Event {
        case deliver(link: Int, toBroker: Bool)
        case connectOutcome(link: Int, accept: Bool)
        case brokerLearnsClose(link: Int)
        case releaseHold(link: Int, toBroker: Bool)
        case clientOperation(Int)
        case serverOperation
        case fault
        case brokerBack
        case answerProcedure(connection: BrokerConnectionID, cid: BrokerCallID, data: JSONValue?, incarnation: Int)
        case answerRequest(client: Int, request: ServerRequestID)
        case checkpoint
        case quiet
        case convergence
        case quiescence
    }

    package let options: SimulationOptions
    let scenario: Scenario
    var random: SeededGenerator
    var clock = SimulatedClock()
    var events = EventQueue<Event>()
    package private(set) var trace: Trace
    var ledger = CallLedger()
    var delivery = DeliveryChecker()
    package internal(set) var violations: [Violation] = []

    var broker: BrokerCore
    var brokerIncarnation = 1
    var brokerUp = true
    /// Connections the broker holds open (by its id), and their links.
    var brokerConnections: [UInt64: Int] = [:]
    var nextConnection: UInt64 = 1
    var links: [Int: SimulatedLink] = [:]
    var nextLink = 1
    var clients: [SimulatedClient] = []
    /// While true, connection attempts may be refused or hang.
    var networkBad = false
    var isQuiet = false
    var finished = false
    var serverSequence = 1
    /// The link whose message the broker is reading (0 for other inputs), and the origin of the
    /// message a client is reading: publications are ordered per publisher connection.
    var brokerInputOrigin = 0
    var clientInputOrigin = 0
    /// Counts for the report.
    package internal(set) var statistics = Statistics()

    /// What a run did, for the runner's report.
    package struct Statistics: Sendable {
        package var clientInputs = 0
        package var brokerInputs = 0
        package var messages = 0
        package var faults = 0
        package var publicationsDelivered = 0
        package var calls = 0
        package var requiredDeliveries = 0
        /// Connections where a client `#removeAuthToken` crossed a broker `#setAuthToken` (auth
        /// state is not compared on them).
        package var authCrossings = 0
    }

    package init(options: SimulationOptions) {
        self.options = options
        var random = SeededGenerator(seed: options.seed)
        scenario = Scenario(using: &random, seed: options.seed, generation: options.generation)
        trace = Trace(window: options.traceWindow, isOn: options.tracing)
        let socketIDSeed = random.next()
        broker = Self.makeBroker(scenario: scenario, seed: socketIDSeed, incarnation: 1)
        for index in 0..<options.clients {
            let jitter = JitterSource(seed: random.next())
            let configuration = scenario.sessionConfiguration { jitter.next() }
            clients.append(SimulatedClient(index: index, session: ClientSession(configuration: configuration)))
        }
        self.random = random
    }

    static func makeBroker(scenario: Scenario, seed: UInt64, incarnation: Int) -> BrokerCore {
        let base = seed &+ UInt64(incarnation) &* 0x9E37_79B9
        var broker = BrokerCore(options: scenario.brokerOptions()) { sequence, bytes in
            var state = base &+ UInt64(sequence)
            for index in bytes.indices {
                bytes[index] = UInt8(truncatingIfNeeded: SeededGenerator.splitMix64(&state))
            }
        }
        // As `BrokerEngine.setHooks` does: the core asks only for the hooks the application set.
        broker.authorizesSubscribe = scenario.authorizesSubscribe
        broker.authorizesPublish = scenario.authorizesPublish
        broker.authorizesHandshake = scenario.authorizesHandshake
        return broker
    }

    /// Simulated time since the start.
    var elapsed: MonotonicInstant { clock.elapsed }

    /// Runs to the end (or the first violation) and returns the result.
    package func run() -> SimulationResult {
        let start = clock.now
        let activeEnd = start + options.activeTime
        record("seed \(options.seed): \(options.clients) clients, \(scenario.summary)")
        for client in clients {
            events.schedule(.clientOperation(client.index), at: start + random.milliseconds(0, 500))
        }
        events.schedule(.serverOperation, at: start + scenario.serverOpInterval)
        if options.faults { events.schedule(.fault, at: start + scenario.faultInterval) }
        events.schedule(.checkpoint, at: start + .seconds(5))
        events.schedule(.quiet, at: activeEnd)
        events.schedule(.convergence, at: activeEnd + scenario.convergenceBound)
        events.schedule(.quiescence, at: activeEnd + scenario.convergenceBound + scenario.quiescenceBound)
        while !finished, violations.isEmpty {
            step()
        }
        statistics.calls = ledger.madeCount
        statistics.requiredDeliveries = delivery.requiredDeliveries
        return SimulationResult(
            seed: options.seed, violations: violations, simulatedTime: clock.now - start, statistics: statistics,
            traceDigest: trace.digest)
    }

    /// Takes the earliest of: a scheduled event, a client's deadline, the broker's deadline.
    func step() {
        var nextTime = events.nextTime
        var timerOwner: Int?  // a client index, or -1 for the broker
        for client in clients {
            if let deadline = client.session.nextDeadline, nextTime.map({ deadline < $0 }) ?? true {
                nextTime = deadline
                timerOwner = client.index
            }
        }
        if let deadline = broker.nextDeadline, nextTime.map({ deadline < $0 }) ?? true {
            nextTime = deadline
            timerOwner = -1
        }
        guard let nextTime else {
            finished = true
            return
        }
        clock.advance(to: nextTime)
        if let owner = timerOwner {
            if owner < 0 {
                brokerInput("timers", timersRan: true) { broker, now, _ in broker.timeElapsed(now: now) }
            } else {
                clientInput(owner, "timers", timersRan: true) { session, now in session.timeElapsed(now: now) }
            }
        } else if let (_, event) = events.pop() {
            handle(event)
        }
    }

    // MARK: Driving the cores

    /// Gives client `index`'s session one input, then carries out what it asked for.
    func clientInput(_ index: Int, _ what: @autoclosure () -> String, timersRan: Bool = false, _ body: (inout ClientSession, MonotonicInstant) -> Void) {
        statistics.clientInputs += 1
        let client = clients[index]
        let now = clock.now
        body(&client.session, now)
        drainClient(client)
        if let violation = ConductChecker.deadline(
            client.session.nextDeadline, of: "client \(index)", after: what(), now: now, timersRan: timersRan, at: elapsed)
        {
            fail(violation)
        }
    }

    /// Gives the broker one input, then carries out what it asked for.
    func brokerInput(_ what: @autoclosure () -> String, timersRan: Bool = false, _ body: (inout BrokerCore, MonotonicInstant, Date) -> Void) {
        statistics.brokerInputs += 1
        let now = clock.now
        body(&broker, now, clock.wallClock)
        drainBroker()
        if let violation = ConductChecker.deadline(
            broker.nextDeadline, of: "broker", after: what(), now: now, timersRan: timersRan, at: elapsed)
        {
            fail(violation)
        }
    }

    func fail(_ violation: Violation) {
        record("VIOLATION \(violation.invariant.rawValue): \(violation.message)")
        violations.append(violation)
    }

    func record(_ text: @autoclosure () -> String) {
        trace.record(elapsed, text())
    }

    func check(_ violation: Violation?) {
        if let violation { fail(violation) }
    }
}

/// The outcome of one run.
package struct SimulationResult: Sendable {
    package var seed: UInt64
    /// Empty when every invariant held; the run stops at the first violation.
    package var violations: [Violation]
    package var simulatedTime: Duration
    package var statistics: Simulator.Statistics
    /// Equal for equal runs (when traced).
    package var traceDigest: UInt64
}
