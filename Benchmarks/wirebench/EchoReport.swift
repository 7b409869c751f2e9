import BenchSupport

extension BenchReport {
    /// The contract's result line for an rtt, pipeline or bulk run that took `start`...`end`
    /// (monotonic nanoseconds); `latencies` are per-message round trips in nanoseconds (rtt only).
    static func echo(options: BenchOptions, client: String, start: UInt64, end: UInt64, latencies: [UInt64]) -> BenchReport {
        let seconds = Double(end &- start) / 1e9
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", client)
        report.add("msgs_per_s", Double(options.count) / seconds)
        if options.mode == .rtt {
            let sorted = latencies.sorted()
            report.add("p50_us", Double(BenchReport.nearestRank(sorted, 0.50)) / 1000, decimals: 2)
            report.add("p99_us", Double(BenchReport.nearestRank(sorted, 0.99)) / 1000, decimals: 2)
        }
        if options.mode == .bulk {
            report.add("MB_per_s", Double(options.count) * Double(options.size) / seconds / 1e6)
        }
        report.add("elapsed_s", seconds, decimals: 6)
        report.add("count", options.count)
        report.add("size", options.size)
        report.add("window", options.window)
        report.add("binary", options.binary)
        return report
    }
}
