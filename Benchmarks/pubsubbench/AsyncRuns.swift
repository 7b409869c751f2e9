import PubSubClient
import BenchSupport

extension PubSubBenchOptions {
    /// The face's name in the report.
    var apiName: String { api.rawValue }

    /// Runs `body` with `client.executor` as the task executor preference for
    /// `--api async-executor` (child tasks inherit it), as it is otherwise.
    func onClientExecutor<T: Sendable>(_ client: PubSubClient, _ body: () async -> T) async -> T {
        guard api == .asyncExecutor else { return await body() }
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else {
            BenchReport.fail("--api async-executor needs macOS 15, iOS 18, tvOS 18 or watchOS 11")
        }
        // apple-runtime-check: guarded
        return await withTaskExecutorPreference(client.executor) { await body() }
    }
}

extension PubSubBenchOptions {
    /// A connected `PubSubClient` subscribed to `channel`, with the channel's stream (made before
    /// the subscription, so nothing published is missed); a failure ends the run.
    func subscribedClient(url: String, channel: String) async -> (PubSubClient, AsyncStream<JSONValue?>) {
        do {
            let client = try PubSubClient(url: url, codec: codec.codec)
            try await client.connect()
            let publications = client.channel(channel)
            try await client.subscribe(channel)
            return (client, publications)
        } catch {
            BenchReport.fail("connect or subscribe failed: \(error)")
        }
    }
}

/// `invoke-rtt` and `invoke-pipeline` with the async face: `window` tasks, each awaiting
/// `PubSubClient.invoke("echo")` in turn (task `w` sends invokes `w`, `w + window`, ...), every
/// answer checked against its request.
struct AsyncInvokeRun {
    let options: PubSubBenchOptions
    let url: String

    func run() async -> BenchReport {
        let payloads = Payloads(size: options.size)
        let client: PubSubClient
        do {
            client = try PubSubClient(url: url, codec: options.codec.codec)
            try await client.connect()
        } catch {
            BenchReport.fail("connect failed: \(error)")
        }
        let count = options.count
        let window = min(options.window, count)
        let timed = options.mode == .invokeRTT
        let start = BenchClock.now()
        let outcome: Result<[UInt64], BenchFailure> = await options.onClientExecutor(client) {
            await withTaskGroup(of: Result<[UInt64], BenchFailure>.self) { group in
                for worker in 0..<window {
                    group.addTask {
                        var latencies: [UInt64] = []
                        if timed { latencies.reserveCapacity(count) }
                        var index = worker
                        while index < count {
                            let sentAt = timed ? BenchClock.now() : 0
                            let answer: JSONValue?
                            do { answer = try await client.invoke("echo", payloads.values[index & 15]) } catch {
                                return .failure(BenchFailure("invoke \(index) failed: \(error)"))
                            }
                            guard case .string(let text)? = answer, text == payloads.strings[index & 15] else {
                                return .failure(BenchFailure("answer \(index) differs from its request"))
                            }
                            if timed { latencies.append(BenchClock.now() &- sentAt) }
                            index += window
                        }
                        return .success(latencies)
                    }
                }
                var all: [UInt64] = []
                for await result in group {
                    switch result {
                    case .success(let latencies): all += latencies
                    case .failure: return result
                    }
                }
                return .success(all)
            }
        }
        let end = BenchClock.now()
        await client.close()
        let latencies: [UInt64]
        switch outcome {
        case .success(let values): latencies = values
        case .failure(let failure): BenchReport.fail(failure.description)
        }
        let seconds = Double(end &- start) / 1e9
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("api", options.apiName)
        report.add("msgs_per_s", Double(count) / seconds)
        if timed {
            let sorted = latencies.sorted()
            report.add("p50_us", Double(BenchReport.nearestRank(sorted, 0.50)) / 1000, decimals: 2)
            report.add("p99_us", Double(BenchReport.nearestRank(sorted, 0.99)) / 1000, decimals: 2)
        }
        report.add("elapsed_s", seconds, decimals: 6)
        report.add("count", count)
        report.add("size", options.size)
        report.addCodec(options, channel: options.mode == .publishOwn ? PublishOwnRun.channel : "")
        report.add("window", options.window)
        return report
    }
}

/// `publish-own` with the async face: `channel()` subscribes and yields the publications; `window`
/// tasks publish with `publishAck`; one task reads the channel until all `count` came back intact
/// (the tasks interleave, so the check is per payload pattern: each must come back as often as
/// it was published).
struct AsyncPublishOwnRun {
    let options: PubSubBenchOptions
    let url: String

    func run() async -> BenchReport {
        let payloads = Payloads(size: options.size)
        let (client, publications) = await options.subscribedClient(url: url, channel: PublishOwnRun.channel)
        let count = options.count
        let window = min(options.window, count)
        let start = BenchClock.now()
        let failure: BenchFailure? = await options.onClientExecutor(client) {
            await withTaskGroup(of: BenchFailure?.self) { group in
                group.addTask {
                    var received = 0
                    var perPattern = [Int](repeating: 0, count: 16)
                    for await data in publications {
                        guard case .string(let text)? = data, let pattern = payloads.strings.firstIndex(of: text) else {
                            return BenchFailure("publication \(received) altered")
                        }
                        perPattern[pattern] += 1
                        received += 1
                        if received == count {
                            let expected = (0..<16).map { count / 16 + ($0 < count % 16 ? 1 : 0) }
                            return perPattern == expected ? nil : BenchFailure("publications missing or duplicated")
                        }
                    }
                    return BenchFailure("the channel ended after \(received) publications")
                }
                for worker in 0..<window {
                    group.addTask {
                        var index = worker
                        while index < count {
                            do { try await client.publishAck(PublishOwnRun.channel, payloads.values[index & 15]) } catch {
                                return BenchFailure("publication \(index) failed: \(error)")
                            }
                            index += window
                        }
                        return nil
                    }
                }
                for await result in group {
                    if let result { return result }
                }
                return nil
            }
        }
        let end = BenchClock.now()
        await client.close()
        if let failure { BenchReport.fail(failure.description) }
        return PublishOwnRun.report(options: options, api: options.apiName, seconds: Double(end &- start) / 1e9)
    }
}

/// Why a run stopped early.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `channel-flood` with the async face: one task reads `channel()` with `for await` and
/// publishes (without acknowledgement) as `ChannelFloodRun` does: a window at first, then half a
/// window each time half a window came back. Every publication must come back intact and in order.
struct AsyncChannelFloodRun {
    let options: PubSubBenchOptions
    let url: String

    func run() async -> BenchReport {
        let payloads = Payloads(size: options.size)
        let (client, publications) = await options.subscribedClient(url: url, channel: ChannelFloodRun.channel)
        let options = self.options
        let start = BenchClock.now()
        let failure: BenchFailure? = await options.onClientExecutor(client) {
            var published = 0
            var received = 0
            func publish(_ count: Int) -> BenchFailure? {
                for _ in 0..<count {
                    do { try client.publish(ChannelFloodRun.channel, payloads.values[published & 15]) } catch {
                        return BenchFailure("publication \(published) failed: \(error)")
                    }
                    published += 1
                }
                return nil
            }
            if let failure = publish(options.window) { return failure }
            for await data in publications {
                guard case .string(let text)? = data, text == payloads.strings[received & 15] else {
                    return BenchFailure("publication \(received) missing, out of order or altered")
                }
                received += 1
                if received == options.count { return nil }
                if let failure = publish(ChannelFloodRun.refill(received: received, published: published, options: options)) {
                    return failure
                }
            }
            return BenchFailure("the channel ended after \(received) publications")
        }
        let end = BenchClock.now()
        await client.close()
        if let failure { BenchReport.fail(failure.description) }
        return PublishOwnRun.report(options: options, api: options.apiName, channel: ChannelFloodRun.channel, seconds: Double(end &- start) / 1e9)
    }
}
