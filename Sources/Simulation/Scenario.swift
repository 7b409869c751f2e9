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

    init(using random: inout SeededGenerator) {
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
        if useMinBin { options.codec = MinBinPacketCodec() }
        return options
    }

    // A constant, valid URL: `try!` cannot fail here (and never sees network input).
    // swift-format-ignore: NeverUseForceTry
    static let address = try! ServerAddress(url: "ws://broker.simulated:8000/socketcluster/")
}
