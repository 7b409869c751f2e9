import Dispatch
import PubSubClient
import BenchSupport

/// `channel-flood` with the closure API: one `ScClient` subscribes to a channel, then publishes
/// `count` publications to it without acknowledgement and receives each back through
/// `onChannel`, at most `window` unread: the first window at once, then half a window each time
/// half a window came back (publishing costs a fraction of the run; the channel's delivery is what
/// is measured). Every publication must come back intact and in order.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue` (the client's
/// callback queue).
final class ChannelFloodRun: @unchecked Sendable {
    static let channel = "pubsubbench/flood"
    private let options: PubSubBenchOptions
    private let url: String
    private let payloads: Payloads
    private let queue = DispatchQueue(label: "pubsubbench.callbacks")

    // queue
    private var client: ScClient?
    private var published = 0
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
                if let error { return outcome.finish("subscribe failed: \(error)") }
                startNanos = BenchClock.now()
                publish(options.window)
            }
        }
        if let failure { BenchReport.fail(failure) }
        let (start, end, client) = await queue.value { [self] in (startNanos, endNanos, self.client) }
        client?.disconnect()
        return PublishOwnRun.report(options: options, api: "closures", channel: Self.channel, seconds: Double(end &- start) / 1e9)
    }

    /// How many to publish after `received` came back: half a window each time half a window
    /// was read, never past `count`.
    static func refill(received: Int, published: Int, options: PubSubBenchOptions) -> Int {
        let half = max(1, options.window / 2)
        guard received % half == 0 else { return 0 }
        return max(0, min(options.count, received + options.window) - published)
    }

    // MARK: On the queue

    private func publish(_ count: Int) {
        guard let client else { return }
        for _ in 0..<count {
            if let error = client.publish(channelName: Self.channel, data: payloads.values[published & 15]) {
                return outcome.finish("publication \(published) failed: \(error)")
            }
            published += 1
        }
    }

    private func publication(_ data: JSONValue?) {
        guard received < options.count else { return outcome.finish("more publications than were published") }
        guard case .string(let text)? = data, text == payloads.strings[received & 15] else {
            return outcome.finish("publication \(received) missing, out of order or altered")
        }
        received += 1
        if received == options.count {
            endNanos = BenchClock.now()
            return outcome.finish(nil)
        }
        publish(Self.refill(received: received, published: published, options: options))
    }
}
