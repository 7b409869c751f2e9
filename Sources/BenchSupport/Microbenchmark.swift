/// The timing loops of the micro-benchmark executables, printing one JSON line per benchmark.
/// Command line: `[--seconds S]` (time per benchmark, default 1) and `[--filter TEXT]` (only the
/// benchmarks whose name contains TEXT; a lone first argument works as a filter too).
public enum Microbenchmark {
    private static let arguments = Array(CommandLine.arguments.dropFirst())

    /// Seconds each `measure` runs (after its warm-up).
    public static let seconds: Double = value(after: "--seconds").flatMap(Double.init) ?? 1.0
    /// Only benchmarks whose name contains this run.
    public static let filter: String? = value(after: "--filter") ?? (arguments.count == 1 ? arguments.first : nil)

    private static func value(after option: String) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// Whether the benchmark `name` is selected.
    public static func selects(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

    /// Runs `body` (which handles `bytesPerRun` bytes and `opsPerRun` operations) repeatedly for
    /// at least `seconds` after three warm-up runs, and prints the rates (GB/s = 1e9 bytes/s).
    /// `body` returns a checksum so its work cannot be optimized away.
    public static func measure(_ name: String, bytesPerRun: Int, opsPerRun: Int, seconds: Double = Microbenchmark.seconds, _ body: () -> Int) {
        guard selects(name) else { return }
        var checksum = 0
        for _ in 0..<3 { checksum &+= body() }
        var runs = 0
        let start = BenchClock.now()
        var elapsed: UInt64 = 0
        repeat {
            checksum &+= body()
            runs += 1
            elapsed = BenchClock.now() &- start
        } while Double(elapsed) < seconds * 1e9
        let secondsElapsed = Double(elapsed) / 1e9
        let gbps = Double(bytesPerRun) * Double(runs) / secondsElapsed / 1e9
        let ops = Double(opsPerRun) * Double(runs) / secondsElapsed
        BenchReport.emit("{\"benchmark\":\"\(name)\",\"gb_per_s\":\(BenchReport.format(gbps, decimals: 3)),\"ops_per_s\":\(BenchReport.format(ops, decimals: 0)),\"runs\":\(runs),\"checksum\":\(checksum)}\n", to: 1)
    }

    /// The method of the shared bench's XOR reference: `passes` timed passes of `body` over
    /// `bytes` bytes, reporting the median pass in GB/s.
    public static func medianPassRate(_ name: String, bytes: Int, passes: Int = 15, _ body: () -> Void) {
        guard selects(name) else { return }
        var seconds: [Double] = []
        for _ in 0..<passes {
            let start = BenchClock.now()
            body()
            seconds.append(Double(BenchClock.now() &- start) / 1e9)
        }
        seconds.sort()
        let rate = Double(bytes) / seconds[passes / 2] / 1e9
        BenchReport.emit("{\"benchmark\":\"\(name)\",\"gb_per_s\":\(BenchReport.format(rate, decimals: 3)),\"bytes\":\(bytes),\"passes\":\(passes)}\n", to: 1)
    }
}
