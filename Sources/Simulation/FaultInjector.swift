@_spi(Cores) import MonotonicTime
import PubSubBroker

/// The fault model: what can go wrong between the clients and the broker, one fault per fault
/// event, chosen by the seed.
extension Simulator {
    func injectFault() {
        statistics.faults += 1
        let open = links.keys.sorted().compactMap { id in links[id].flatMap { $0.phase == .open ? $0 : nil } }
        let choice = random.int(0...99)
        if open.isEmpty || choice >= 90 {
            networkFault(choice)
            return
        }
        let link = open[random.int(0...(open.count - 1))]
        switch choice {
        case 0...24:
            // A reset both ends see (possibly the broker a little later).
            reset(link, clientHears: true, brokerDelay: random.chance(0.7) ? .zero : random.milliseconds(1, 5_000))
        case 25...34:
            // Half-open, client side: the broker hears of it, the client must find out by its ping timeout.
            reset(link, clientHears: false, brokerDelay: .zero)
        case 35...44:
            // Half-open, broker side: the client hears of it, the broker only by its pong timeout.
            reset(link, clientHears: true, brokerDelay: nil)
        case 45...69:
            stall(link, toBroker: random.chance(0.5), for: random.milliseconds(100, 15_000))
        case 70...84:
            hold(link, toBroker: random.chance(0.5), for: random.milliseconds(1_000, 40_000))
        default:
            stall(link, toBroker: true, for: random.milliseconds(10, 2_000))
            stall(link, toBroker: false, for: random.milliseconds(10, 2_000))
        }
    }

    private func networkFault(_ choice: Int) {
        if choice >= 97 || (choice >= 90 && !brokerUp) {
            restartBroker()
        } else {
            networkBad.toggle()
            record("network \(networkBad ? "turns bad: connects may be refused or hang" : "is good again")")
        }
    }

    /// The broker process restarts: every connection and all of its state are lost; it accepts
    /// connections again after a while.
    func restartBroker() {
        let downtime = random.milliseconds(0, 5_000)
        record("broker restarts (down for \(downtime))")
        for id in links.keys.sorted() {
            guard let link = links[id], link.phase == .open else { continue }
            link.brokerOpen = false
            if let connection = link.connection { brokerConnections[connection.rawValue] = nil }
            let clientHears = random.chance(0.8)
            reset(link, clientHears: clientHears, brokerDelay: nil)
        }
        brokerConnections.removeAll()
        ledger.abandon(CallLedger.broker)
        brokerIncarnation += 1
        broker = Self.makeBroker(scenario: scenario, seed: options.seed, incarnation: brokerIncarnation)
        brokerUp = false
        events.schedule(.brokerBack, at: clock.now + downtime)
    }

    /// One direction of `link` holds its messages for `duration` (they arrive afterwards, in order).
    func stall(_ link: SimulatedLink, toBroker: Bool, for duration: Duration) {
        let until = clock.now + duration
        record("link \(link.id) stalls \(toBroker ? "up" : "down") for \(duration)")
        if toBroker {
            link.up.stalledUntil = max(link.up.stalledUntil ?? until, until)
        } else {
            link.down.stalledUntil = max(link.down.stalledUntil ?? until, until)
            delivery.stalled(link.id, from: elapsed, to: elapsed + duration)
        }
    }

    /// One direction of `link` holds everything until released (a one-way partition).
    func hold(_ link: SimulatedLink, toBroker: Bool, for duration: Duration) {
        record("link \(link.id) holds \(toBroker ? "up" : "down") for \(duration)")
        if toBroker {
            guard !link.up.held else { return }
            link.up.held = true
        } else {
            guard !link.down.held else { return }
            link.down.held = true
            delivery.held(link.id, from: elapsed)
        }
        events.schedule(.releaseHold(link: link.id, toBroker: toBroker), at: clock.now + duration)
    }

    func releaseHold(_ link: SimulatedLink, toBroker: Bool) {
        if toBroker {
            guard link.up.held else { return }
            link.up.held = false
        } else {
            guard link.down.held else { return }
            link.down.held = false
            delivery.released(link.id, at: elapsed)
        }
        record("link \(link.id) releases \(toBroker ? "up" : "down")")
        if link.phase == .open { scheduleDelivery(link, toBroker: toBroker) }
    }
}
