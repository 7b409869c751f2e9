import Foundation
import PubSubClient
import BenchSupport

/// `flooded-app`: the flooded app. A `PubSubClient` with its defaults reads
/// `channel("flood")` and handles one publication per `handleMilliseconds` for `seconds`, while
/// a publisher elsewhere (`Scripts/flood/client-flood.py`) sends publications as fast as the
/// server takes them. Reports this process's peak RSS. Once subscribed it publishes on
/// `flood-ready` every 100 ms until the first publication arrives; the publisher waits for that.
/// Every publication carries `n`, increasing: a reordering is a failure, and a gap must follow a
/// close (the server cutting a slow consumer), never come silently.
struct FloodedAppRun {
    let options: PubSubBenchOptions
    let url: String

    func run() async -> BenchReport {
        let client: PubSubClient
        do {
            client = try PubSubClient(url: url, codec: options.codec.codec)
        } catch {
            BenchReport.fail("client: \(error)")
        }
        let closes = CloseTally()
        let events = client.events()
        // Kept up with (the events stream is flow-controlled too): counts closes, reconnects.
        let watcher = Task {
            for await event in events {
                switch event {
                case .closed(let close): closes.closed(close.code.rawValue)
                case .connected: closes.connected()
                default: break
                }
            }
        }
        let publications = client.channel("flood")
        do {
            try await client.connect()
            for _ in 0..<500 where client.channelState("flood") != .subscribed { try await Task.sleep(for: .milliseconds(10)) }
            guard client.channelState("flood") == .subscribed else { BenchReport.fail("not subscribed to flood after 5 s") }
        } catch {
            BenchReport.fail("connect or subscribe failed: \(error)")
        }
        BenchReport.emit("flooded-app: subscribed to flood, handling one publication per \(options.handleMilliseconds) ms for \(options.seconds) s\n", to: 2)

        // Until the flood starts: the publisher may subscribe to flood-ready after the first one.
        let announcer = Task {
            while !Task.isCancelled {
                try? client.publish("flood-ready", true)
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        let start = BenchClock.now()
        let handleMilliseconds = options.handleMilliseconds
        let app = Task { () -> AppTally in
            var tally = AppTally()
            var nextReport = start + 1_000_000_000
            for await item in publications {
                guard case .int(let value)? = item?["n"] else { tally.failure = "publication \(tally.handled) has no n"; break }
                let n = Int(value)
                announcer.cancel()
                if n <= tally.last { tally.failure = "publication \(n) after \(tally.last)"; break }
                if tally.last >= 0, n != tally.last + 1 {
                    // The close reaches the events watcher on its own stream: give it a moment.
                    for _ in 0..<200 where closes.closes == 0 { try? await Task.sleep(for: .milliseconds(10)) }
                    if closes.closes == 0 { tally.failure = "silent gap: \(n) after \(tally.last) without a close"; break }
                    tally.gaps += 1
                    tally.skipped += n - tally.last - 1
                }
                tally.last = n
                tally.handled += 1
                // The app's work: one publication per handleMilliseconds.
                try? await Task.sleep(for: .milliseconds(handleMilliseconds))
                let now = BenchClock.now()
                if now >= nextReport {
                    BenchReport.emit(
                        "\(Int(Double(now &- start) / 1e9)) s  handled \(tally.handled)  RSS \(BenchReport.residentKiB() / 1024) MiB  peak \(BenchReport.peakResidentKiB() / 1024) MiB  closes \(closes.closes)\n",
                        to: 2)
                    nextReport += 1_000_000_000
                }
                if Task.isCancelled { break }
            }
            if !Task.isCancelled, tally.failure == nil { tally.failure = "the channel stream ended" }
            return tally
        }
        try? await Task.sleep(for: .seconds(options.seconds))
        app.cancel()
        announcer.cancel()
        let tally = await app.value
        let seconds = Double(BenchClock.now() &- start) / 1e9
        let peak = BenchReport.peakResidentKiB()
        watcher.cancel()
        await client.close()
        if let failure = tally.failure { BenchReport.fail(failure) }
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "pubsub-swift")
        report.add("api", "async")
        report.add("elapsed_s", seconds, decimals: 3)
        report.add("handle_ms", options.handleMilliseconds)
        report.add("handled", tally.handled)
        report.add("last_n", tally.last)
        report.add("closes", closes.closes)
        report.add("close_codes", closes.codes.map(String.init).joined(separator: " "))
        report.add("connects", closes.connects)
        report.add("gaps_after_close", tally.gaps)
        report.add("skipped_after_close", tally.skipped)
        report.add("dropped_stream_items", client.droppedStreamItems)
        report.add("peak_rss_mib", Double(peak) / 1024)
        return report
    }
}

/// What the app handled.
private struct AppTally: Sendable {
    var handled = 0
    /// The last publication's `n` (-1: none yet).
    var last = -1
    /// Jumps in `n` after a close, and the publications they skipped.
    var gaps = 0
    var skipped = 0
    var failure: String?
}

/// The connection's closes and connects, seen by the events watcher. `@unchecked Sendable`:
/// guarded by `lock`.
private final class CloseTally: @unchecked Sendable {
    private let lock = NSLock()
    private var closeCodes: [UInt16] = []
    private var connectCount = 0

    func closed(_ code: UInt16) { lock.withLock { closeCodes.append(code) } }
    func connected() { lock.withLock { connectCount += 1 } }
    var closes: Int { lock.withLock { closeCodes.count } }
    /// The distinct close codes, in order of first appearance.
    var codes: [UInt16] {
        lock.withLock {
            var seen: [UInt16] = []
            for code in closeCodes where !seen.contains(code) { seen.append(code) }
            return seen
        }
    }
    var connects: Int { lock.withLock { connectCount } }
}
