import PubSubBroker
import PubSubClient
import PubSubProtocol

/// The configuration of one run, drawn from its seed: the real options of the client sessions
/// and the broker (short timeouts and small limits, so that they are reached), the network's
/// latencies and how often each fault strikes.
struct Scenario {
    var useMinBin: Bool
    var ackTimeout: Duration
    var connectTimeout: Duration
    var reconnectPolicy: ReconnectPolicy
    var maxQueuedMessages: Int
    var brokerPingInterval: Duration
    var brokerPingTimeout: Duration
    var brokerHandshakeTimeout: Duration
    var brokerAckTimeout: Duration
    var socketChannelLimit: Int?
    /// One-way latency of a link is drawn between these (per link a narrower range inside).
    var minLatencyMillis: Int64
    var maxLatencyMillis: Int64
    /// Mean simulated time between two operations of one client, and of the server.
    var clientOpInterval: Duration
    var serverOpInterval: Duration
    /// Mean simulated time between two faults (when faults are on).
    var faultInterval: Duration
    /// Chances that a connection attempt is refused, or hangs (never accepted), while the
    /// network is in its bad phase.
    var refuseChance: Double
    var hangChance: Double
    /// Channel names the workload uses.
    var channels: [String]
    /// Generation 2: which authorization hooks the broker's application sets, and how often they
    /// refuse while faults run; protocol-1 pings; whether clients cancel calls.
    var authorizesSubscribe = false
    var authorizesPublish = false
    var authorizesHandshake = false
    var hookRefuseChance = 0.0
    var protocolVersion1 = false
    var clientsPingVersion1 = false
    var cancelsCalls = false

    /// Draws the scenario of `seed` from `random` (the run's generator); what later generations
    /// add is drawn from a generator of its own, so the older generations' runs stay as they were.
    init(using random: inout SeededGenerator, seed: UInt64, generation: Int) {
        self.init(using: &random)
        guard generation >= 2 else { return }
        var extra = SeededGenerator(seed: seed ^ 0x5EED_0000_0000_0002)
        authorizesSubscribe = extra.chance(0.3)
        authorizesPublish = extra.chance(0.3)
        authorizesHandshake = extra.chance(0.3)
        hookRefuseChance = 0.05 + extra.unit() * 0.25
        protocolVersion1 = extra.chance(0.25)
        clientsPingVersion1 = protocolVersion1 && extra.chance(0.5)
        cancelsCalls = extra.chance(0.5)
    }

    private init(using random: inout SeededGenerator) {
        useMinBin = random.chance(0.2)
        ackTimeout = random.milliseconds(1_000, 8_000)
        connectTimeout = random.milliseconds(2_000, 10_000)
        reconnectPolicy = ReconnectPolicy(
            initialDelay: random.milliseconds(100, 3_000), randomness: random.milliseconds(0, 3_000),
            multiplier: 1 + random.unit(), maxDelay: random.milliseconds(3_000, 15_000))
        maxQueuedMessages = random.chance(0.5) ? random.int(2...20) : 1000
        brokerPingInterval = random.milliseconds(1_000, 8_000)
        brokerPingTimeout = brokerPingInterval + random.milliseconds(1_000, 12_000)
        brokerHandshakeTimeout = random.milliseconds(2_000, 10_000)
        brokerAckTimeout = random.milliseconds(1_000, 8_000)
        socketChannelLimit = random.chance(0.3) ? random.int(1...4) : nil
        minLatencyMillis = Int64(random.int(0...20))
        maxLatencyMillis = minLatencyMillis + Int64(random.int(1...400))
        clientOpInterval = random.milliseconds(200, 3_000)
        serverOpInterval = random.milliseconds(200, 3_000)
        faultInterval = random.milliseconds(500, 10_000)
        refuseChance = random.unit() * 0.5
        hangChance = random.unit() * 0.3
        channels = (0..<random.int(1...5)).map { "ch\($0)" }
    }

    /// How long after faults stop every client must agree with the broker: the longest back-off,
    /// a connection attempt and its handshake, a half-open connection found by the ping timeout,
    /// a subscribe's round trip, a broker restart still under way, and slack for latencies.
    var convergenceBound: Duration {
        reconnectPolicy.maxDelay + connectTimeout + ackTimeout * 2 + brokerPingTimeout + .seconds(6)
            + .milliseconds(maxLatencyMillis * 8)
    }

    /// After the convergence check, how long until every call must have completed.
    var quiescenceBound: Duration {
        max(ackTimeout, brokerAckTimeout) + connectTimeout + .seconds(5) + .milliseconds(maxLatencyMillis * 4)
    }

    /// The scenario in one line, for the trace.
    var summary: String {
        "\(useMinBin ? "min-bin" : "JSON"), ack timeout \(ackTimeout), connect timeout \(connectTimeout), back-off "
            + "\(reconnectPolicy.initialDelay)+\(reconnectPolicy.randomness) ×\(reconnectPolicy.multiplier) ≤ \(reconnectPolicy.maxDelay), "
            + "queue \(maxQueuedMessages), ping \(brokerPingInterval)/\(brokerPingTimeout), channel limit "
            + "\(socketChannelLimit.map(String.init) ?? "none"), latency \(minLatencyMillis)–\(maxLatencyMillis) ms, "
            + "channels \(channels.count)"
            + (authorizesSubscribe || authorizesPublish || authorizesHandshake
                ? ", hooks: \(authorizesSubscribe ? "subscribe " : "")\(authorizesPublish ? "publish " : "")"
                    + "\(authorizesHandshake ? "handshake " : "")(refusing \(Int(hookRefuseChance * 100)) %)" : "")
            + (protocolVersion1 ? ", protocol-1 pings\(clientsPingVersion1 ? " (clients v1)" : "")" : "")
            + (cancelsCalls ? ", cancels" : "")
    }

    func sessionConfiguration(random jitter: @escaping @Sendable () -> Double) -> SessionConfiguration {
        // The address is never resolved: the simulator carries the session's messages itself.
        var configuration = SessionConfiguration(address: Self.address)
        configuration.ackTimeout = ackTimeout
        configuration.connectTimeout = connectTimeout
        configuration.reconnectPolicy = reconnectPolicy
        configuration.maxQueuedMessages = maxQueuedMessages
        configuration.reconnectWhenNetworkReturns = false
        configuration.random = jitter
        if clientsPingVersion1 { configuration.protocolVersion = .v1 }
        if useMinBin { configuration.codec = MinBinPacketCodec() }
        return configuration
    }

    func brokerOptions() -> BrokerOptions {
        var options = BrokerOptions(authKey: "simulated-broker-key")
        options.pingInterval = brokerPingInterval
        options.pingTimeout = brokerPingTimeout
        options.handshakeTimeout = brokerHandshakeTimeout
        options.ackTimeout = brokerAckTimeout
        options.socketChannelLimit = socketChannelLimit
        if protocolVersion1 { options.protocolVersion = .v1 }
        if useMinBin { options.codec = MinBinPacketCodec() }
        return options
    }

    // A constant, valid URL: `try!` cannot fail here (and never sees network input).
    // swift-format-ignore: NeverUseForceTry
    static let address = try! ServerAddress(url: "ws://broker.simulated:8000/socketcluster/")
}
