import Dispatch
import PubSubClient
import BenchSupport

/// `publish-own` with the closure API: one `ScClient` subscribes to a channel, then publishes
/// `count` publications to it with acknowledgement (`window` in flight) and receives each back
/// through `onChannel`. Every publication must come back intact and in order; the interval ends
/// when all `count` were received and acknowledged.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue` (the client's
/// callback queue).
final class PublishOwnRun: @unchecked Sendable {
    static let channel = "pubsubbench/own"
    private let options: PubSubBenchOptions
    private let url: String
    private let payloads: Payloads
    private let queue = DispatchQueue(label: "pubsubbench.callbacks")

    // queue
    private var client: ScClient?
    private var published = 0
    private var acknowledged = 0
    private var received = 0
    private var startNanos: UInt64 = 0
    private var endNanos: UInt64 = 0
    private let outcome = RunOutcome()

    init(options: PubSubBenchOptions, url: String) {
        self.options = options
        self.url = url
        payloads = Payloads(size: options.size)
    }

    func run() async -> BenchReport {
        let failure = await outcome.wait(on: queue) { [self] in
            guard let client = ScClient.forRun(url: url, codec: options.codec.codec, queue: queue, outcome: outcome) else { return }
            self.client = client
            _ = client.onChannel(channelName: Self.channel) { [self] _, data in publication(data) }
            client.connect()
            client.subscribeAck(channelName: Self.channel) { [self] _, error, _ in
                if let error { return finish("subscribe failed: \(error)") }
                begin()
            }
        }
        if let failure { BenchReport.fail(failure) }
        let (start, end, client) = await queue.value { [self] in (startNanos, endNanos, self.client) }
        client?.disconnect()
        return PublishOwnRun.report(options: options, api: "closures", seconds: Double(end &- start) / 1e9)
    }

    /// The run's result line (publish-own, or channel-flood with its `channel`).
    static func report(options: PubSubBenchOptions, api: String, channel: String = channel, seconds: Double) -> BenchReport {
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("api", api)
        report.add("msgs_per_s", Double(options.count) / seconds)
        report.add("elapsed_s", seconds, decimals: 6)
        report.add("count", options.count)
        report.add("size", options.size)
        report.addCodec(options, channel: channel)
        report.add("window", options.window)
        return report
    }

    // MARK: On the queue

    private func begin() {
        startNanos = BenchClock.now()
        for _ in 0..<min(options.window, options.count) { publishNext() }
    }

    private func publishNext() {
        guard let client else { return }
        let index = published
        published += 1
        client.publishAck(channelName: Self.channel, data: payloads.values[index & 15]) { [self] _, error, _ in
            if let error { return finish("publication \(index) failed: \(error)") }
            acknowledged += 1
            done()
            if published < options.count { publishNext() }
        }
    }

    private func publication(_ data: JSONValue?) {
        guard received < options.count else { return finish("more publications than were published") }
        guard case .string(let text)? = data, text == payloads.strings[received & 15] else {
            return finish("publication \(received) missing, out of order or altered")
        }
        received += 1
        done()
    }

    private func done() {
        guard received == options.count, acknowledged == options.count, endNanos == 0 else { return }
        endNanos = BenchClock.now()
        finish(nil)
    }

    private func finish(_ failure: String?) {
        outcome.finish(failure)
    }
}
