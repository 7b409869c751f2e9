import Dispatch
import PubSubClient
import BenchSupport

/// `connections`: starts `connections` clients at once; each connects (SocketCluster handshake)
/// and subscribes with an acknowledgement. The interval ends when every subscription is
/// confirmed; the peak RSS is read with all of them still open, then all disconnect.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue`, the callback queue
/// of all clients.
final class ConnectionsRun: @unchecked Sendable {
    private static let channel = "pubsubbench/connections"
    private let options: PubSubBenchOptions
    private let url: String
    private let queue = DispatchQueue(label: "pubsubbench.callbacks")

    // queue
    private var clients: [ScClient] = []
    private var subscribed = 0
    private var startNanos: UInt64 = 0
    private var endNanos: UInt64 = 0
    private let outcome = RunOutcome()

    init(options: PubSubBenchOptions, url: String) {
        self.options = options
        self.url = url
    }

    func run() async -> BenchReport {
        let failure = await outcome.wait(on: queue) { [self] in
            startNanos = BenchClock.now()
            for index in 0..<options.connections { open(index) }
        }
        if let failure { BenchReport.fail(failure) }
        let rss = BenchReport.peakResidentKiB()
        let (start, end, clients) = await queue.value { [self] in (startNanos, endNanos, self.clients) }
        for client in clients { client.disconnect() }

        let milliseconds = Double(end &- start) / 1e6
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("connect_total_ms", milliseconds, decimals: 2)
        report.add("rss_kib", rss)
        report.add("elapsed_s", milliseconds / 1000, decimals: 6)
        report.add("connections", options.connections)
        return report
    }

    // MARK: On the queue

    private func open(_ index: Int) {
        guard let client = ScClient.forRun(url: url, codec: options.codec.codec, queue: queue, outcome: outcome, name: "client \(index)") else { return }
        clients.append(client)
        client.connect()
        client.subscribeAck(channelName: Self.channel) { [self] _, error, _ in
            if let error { return finish("client \(index): subscribe failed: \(error)") }
            subscribed += 1
            if subscribed == options.connections {
                endNanos = BenchClock.now()
                finish(nil)
            }
        }
    }

    private func finish(_ failure: String?) {
        outcome.finish(failure)
    }
}
