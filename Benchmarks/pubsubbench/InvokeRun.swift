import Dispatch
import PubSubClient
import BenchSupport

/// `invoke-rtt` and `invoke-pipeline`: keeps `window` invokes of `echo` in flight on one
/// connection until `count` answers are verified (each answer must equal its request's data).
/// Uses the closure API (`ScClient.emitAck`) with callbacks on one serial queue.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue` (the client's
/// callback queue).
final class InvokeRun: @unchecked Sendable {
    private let options: PubSubBenchOptions
    private let url: String
    private let payloads: Payloads
    private let queue = DispatchQueue(label: "pubsubbench.callbacks")

    // queue
    private var client: ScClient?
    private var sent = 0
    private var verified = 0
    private var startNanos: UInt64 = 0
    private var endNanos: UInt64 = 0
    /// rtt: send instant of invoke `i`, then its latency (ns).
    private var latencies: [UInt64]
    private let outcome = RunOutcome()

    init(options: PubSubBenchOptions, url: String) {
        self.options = options
        self.url = url
        payloads = Payloads(size: options.size)
        latencies = options.mode == .invokeRTT ? [UInt64](repeating: 0, count: options.count) : []
    }

    func run() async -> BenchReport {
        let failure = await outcome.wait(on: queue) { [self] in
            guard let client = ScClient.forRun(url: url, codec: options.codec.codec, queue: queue, outcome: outcome, onConnect: { [self] _ in beginInvoking() })
            else { return }
            self.client = client
            client.connect()
        }
        if let failure { BenchReport.fail(failure) }
        let (start, end, latencies, client) = await queue.value { [self] in (startNanos, endNanos, self.latencies, self.client) }
        client?.disconnect()

        let seconds = Double(end &- start) / 1e9
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("api", "closures")
        report.add("msgs_per_s", Double(options.count) / seconds)
        if options.mode == .invokeRTT {
            let sorted = latencies.sorted()
            report.add("p50_us", Double(BenchReport.nearestRank(sorted, 0.50)) / 1000, decimals: 2)
            report.add("p99_us", Double(BenchReport.nearestRank(sorted, 0.99)) / 1000, decimals: 2)
        }
        report.add("elapsed_s", seconds, decimals: 6)
        report.add("count", options.count)
        report.add("size", options.size)
        report.addCodec(options)
        report.add("window", options.window)
        return report
    }

    // MARK: On the queue

    private func beginInvoking() {
        guard startNanos == 0 else { return }
        startNanos = BenchClock.now()
        for _ in 0..<min(options.window, options.count) { invokeNext() }
    }

    private func invokeNext() {
        guard let client else { return }
        let index = sent
        sent += 1
        if options.mode == .invokeRTT { latencies[index] = BenchClock.now() }
        client.emitAck(eventName: "echo", data: payloads.values[index & 15]) { [self] _, error, data in
            answered(index, error: error, data: data)
        }
    }

    private func answered(_ index: Int, error: PubSubError?, data: JSONValue?) {
        if let error { return finish("invoke \(index) failed: \(error)") }
        guard case .string(let text)? = data, text == payloads.strings[index & 15] else {
            return finish("answer \(index) differs from its request")
        }
        if options.mode == .invokeRTT { latencies[index] = BenchClock.now() &- latencies[index] }
        verified += 1
        if verified == options.count {
            endNanos = BenchClock.now()
            return finish(nil)
        }
        if sent < options.count { invokeNext() }
    }

    private func finish(_ failure: String?) {
        outcome.finish(failure)
    }
}
