/// The timing loops of the micro-benchmark executables, printing one JSON line per benchmark.
/// Command line: `[--seconds S]` (time per benchmark, default 1) and `[--filter TEXT]` (only the
/// benchmarks whose name contains TEXT; a lone first argument works as a filter too).
public enum Microbenchmark {
    private static let arguments = Array(CommandLine.arguments.dropFirst())

    /// The usage text of a micro-benchmark executable that `describes` what it measures.
    public static func usage(describing what: String) -> String {
        let program = BenchReport.program
        return """
            usage: \(program) [--filter TEXT | TEXT] [--seconds S]
            \(what); one JSON line per benchmark on standard output.
              --filter TEXT   only the benchmarks whose name contains TEXT (a lone argument works too)
              --seconds S     time per benchmark after its warm-up, in seconds (default 1)
              -h, --help      this text
            exit status: 0 done, 2 usage error
            """
    }

    /// Checks the command line before any benchmark runs: answers `--help`, refuses unknown
    /// options and bad values (exit 2).
    public static func checkCommandLine(usage: String) {
        CommandLineManners.answerHelp(arguments, usage: usage)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--seconds", "--filter":
                guard index + 1 < arguments.count else { CommandLineManners.refuse("\(argument) needs a value") }
                if argument == "--seconds" {
                    guard let seconds = Double(arguments[index + 1]), seconds > 0 else {
                        CommandLineManners.refuse("--seconds needs a positive number, got '\(arguments[index + 1])'")
                    }
                }
                index += 2
            default:
                guard !argument.hasPrefix("-"), arguments.count == 1 else {
                    CommandLineManners.refuse("unknown option '\(argument)'")
                }
                index += 1
            }
        }
    }

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
        BenchReport.emit(
            "{\"benchmark\":\"\(name)\",\"gb_per_s\":\(BenchReport.format(gbps, decimals: 3)),\"ops_per_s\":\(BenchReport.format(ops, decimals: 0)),\"runs\":\(runs),\"checksum\":\(checksum)}\n",
            to: 1)
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
