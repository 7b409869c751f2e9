import Dispatch
import PubSubClient
import BenchSupport

/// `publish-fanout`: `subscribers` clients subscribe to one channel; one more client publishes
/// `count` publications with `window` in flight (`publishAck`). Each publication carries its
/// number, its send instant and a payload; every subscriber checks it receives them all, in
/// order, intact, and records the delivery latency. The interval ends when every subscriber has
/// all `count`.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue`, the callback queue
/// of all clients.
final class FanoutRun: @unchecked Sendable {
    private static let channel = "pubsubbench/fanout"
    private let options: PubSubBenchOptions
    private let url: String
    private let payloads: Payloads
    private let queue = DispatchQueue(label: "pubsubbench.callbacks")

    // queue
    private var publisher: ScClient?
    private var subscribers: [ScClient] = []
    private var ready = 0
    private var published = 0
    private var acknowledged = 0
    /// Next publication number each subscriber expects.
    private var expected: [Int]
    private var delivered = 0
    private var latencies: [UInt64] = []
    private var startNanos: UInt64 = 0
    private var endNanos: UInt64 = 0
    private let outcome = RunOutcome()

    init(options: PubSubBenchOptions, url: String) {
        self.options = options
        self.url = url
        payloads = Payloads(size: options.size)
        expected = [Int](repeating: 0, count: options.subscribers)
        latencies.reserveCapacity(options.count * options.subscribers)
    }

    func run() async -> BenchReport {
        let failure = await outcome.wait(on: queue) { [self] in setUp() }
        if let failure { BenchReport.fail(failure) }
        let (start, end, latencies, clients) = await queue.value { [self] in
            (startNanos, endNanos, self.latencies, subscribers + [publisher].compactMap { $0 })
        }
        for client in clients { client.disconnect() }

        let seconds = Double(end &- start) / 1e9
        let sorted = latencies.sorted()
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("msgs_per_s", Double(sorted.count) / seconds)
        report.add("publications_per_s", Double(options.count) / seconds)
        report.add("p50_us", Double(BenchReport.nearestRank(sorted, 0.50)) / 1000, decimals: 2)
        report.add("p99_us", Double(BenchReport.nearestRank(sorted, 0.99)) / 1000, decimals: 2)
        report.add("elapsed_s", seconds, decimals: 6)
        report.add("count", options.count)
        report.add("subscribers", options.subscribers)
        report.add("size", options.size)
        report.addCodec(options, channel: Self.channel)
        report.add("window", options.window)
        return report
    }

    // MARK: On the queue

    private func setUp() {
        for index in 0..<options.subscribers {
            guard let client = ScClient.forRun(url: url, codec: options.codec.codec, queue: queue, outcome: outcome, name: "subscriber \(index)") else {
                return
            }
            subscribers.append(client)
            _ = client.onChannel(channelName: Self.channel) { [self] _, data in received(data, subscriber: index) }
            client.connect()
            client.subscribeAck(channelName: Self.channel) { [self] _, error, _ in
                if let error { return finish("subscriber \(index): subscribe failed: \(error)") }
                becameReady()
            }
        }
        guard
            let publisher = ScClient.forRun(
                url: url, codec: options.codec.codec, queue: queue, outcome: outcome, name: "publisher", onConnect: { [self] _ in becameReady() })
        else { return }
        self.publisher = publisher
        publisher.connect()
    }

    private func becameReady() {
        ready += 1
        guard ready == options.subscribers + 1 else { return }
        startNanos = BenchClock.now()
        for _ in 0..<min(options.window, options.count) { publishNext() }
    }

    private func publishNext() {
        guard let publisher else { return }
        let index = published
        published += 1
        let data: JSONValue = .object(["i": .int(Int64(index)), "t": .int(Int64(BenchClock.now())), "p": payloads.values[index & 15]])
        publisher.publishAck(channelName: Self.channel, data: data) { [self] _, error, _ in
            if let error { return finish("publication \(index) failed: \(error)") }
            acknowledged += 1
            if published < options.count { publishNext() }
        }
    }

    private func received(_ data: JSONValue?, subscriber: Int) {
        let now = BenchClock.now()
        let index = expected[subscriber]
        guard let data, data["i"]?.intValue == Int64(index), let sentAt = data["t"]?.intValue,
            data["p"] == payloads.values[index & 15]
        else {
            return finish("subscriber \(subscriber): publication \(index) missing, out of order or altered")
        }
        expected[subscriber] = index + 1
        latencies.append(now &- UInt64(sentAt))
        delivered += 1
        if delivered == options.count * options.subscribers {
            endNanos = now
            finish(nil)
        }
    }

    private func finish(_ failure: String?) {
        outcome.finish(failure)
    }
}
