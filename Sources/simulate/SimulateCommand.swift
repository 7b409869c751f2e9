import Foundation
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `simulate`: runs seeds of the deterministic simulator and reports violations with their trace.
enum SimulateCommand {
    static let usage = """
        USAGE: simulate [--seed S] [--seeds N] [--time T] [--clients C] [--no-faults] [--trace] [--trace-window W]
                        [--generation G]

        Runs the real client session and broker cores (ClientSession, BrokerCore) against a simulated
        network and clock. Every choice of a run (configuration, latencies, faults, workload) comes
        from its seed, so a seed replays exactly. Invariants are checked as it runs: every call
        completes exactly once; acknowledged publications reach continuously subscribed clients once
        and in order, and nothing reaches an unsubscribed one; after faults stop, clients converge to
        the broker's view; queues stay within their limits; no action after close, no deadline in the
        past, only sendable close codes.

        OPTIONS:
          --seed S          First seed (default 1). Seeds S, S+1, ... S+N-1 run.
          --seeds N         How many seeds (default 1).
          --time T          Simulated seconds of workload and faults per seed (default 120); the run
                            then goes on until the convergence and quiescence bounds have passed.
          --clients C       Client sessions per seed (default 10).
          --no-faults       Latency only: no resets, stalls, holds, refused connects or restarts.
          --trace           Print the trace of every seed run, failing or not.
          --trace-window W  Simulated seconds of trace printed for a failing seed (default 20).
          --generation G    The workload generation (default \(SimulationOptions.latestGeneration), the latest). A seed
                            replays exactly with the generation it ran with; 1 is the original
                            workload, 2 adds authorization hooks, protocol-1 pings and cancelled calls.
          --help            This text.

        A failing seed prints its violation, the trace of its last W simulated seconds, and the
        command that replays it; the exit status is then 1. The summary gives simulated seconds per
        CPU second and seeds per minute (build with `-c release` to measure).
        """

    static func main() {
        var arguments = CommandLine.arguments.dropFirst()
        var seed: UInt64 = 1
        var seeds = 1
        var time = 120
        var clients = 10
        var faults = true
        var traceAll = false
        var traceWindow = 20
        var generation = SimulationOptions.latestGeneration
        func value(_ name: String) -> String {
            guard let text = arguments.popFirst() else { fail("\(name) needs a value") }
            return text
        }
        func positive(_ name: String) -> Int {
            guard let number = Int(value(name)), number > 0 else { fail("\(name) takes a positive integer") }
            return number
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--seed":
                guard let number = UInt64(value(argument)) else { fail("--seed takes an unsigned integer") }
                seed = number
            case "--seeds": seeds = positive(argument)
            case "--time": time = positive(argument)
            case "--clients": clients = positive(argument)
            case "--trace-window": traceWindow = positive(argument)
            case "--generation":
                generation = positive(argument)
                guard generation <= SimulationOptions.latestGeneration else { fail("--generation goes up to \(SimulationOptions.latestGeneration)") }
            case "--no-faults": faults = false
            case "--trace": traceAll = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default: fail("unknown argument \(argument)")
            }
        }

        let wallStart = Date()
        let cpuStart = cpuSeconds()
        var simulatedSeconds = 0.0
        var failed: [UInt64] = []
        var calls = 0
        var required = 0
        var crossings = 0
        for offset in 0..<seeds {
            let current = seed &+ UInt64(offset)
            var options = SimulationOptions(seed: current)
            options.clients = clients
            options.activeTime = .seconds(time)
            options.faults = faults
            options.traceWindow = .seconds(traceWindow)
            options.tracing = traceAll
            options.generation = generation
            let simulator = Simulator(options: options)
            let result = simulator.run()
            simulatedSeconds += Double(result.simulatedTime.components.seconds)
            calls += result.statistics.calls
            required += result.statistics.requiredDeliveries
            crossings += result.statistics.authCrossings
            if traceAll { print(simulator.trace.rendered(), terminator: "") }
            guard let violation = result.violations.first else { continue }
            failed.append(current)
            report(violation, options: options, time: time, clients: clients, faults: faults, traceWindow: traceWindow)
        }
        let cpu = max(cpuSeconds() - cpuStart, 1e-9)
        let wall = max(Date().timeIntervalSince(wallStart), 1e-9)
        print(
            "\(seeds) seeds (\(seed)...\(seed &+ UInt64(seeds - 1))), generation \(generation), \(clients) clients, \(time) s active each: "
                + "\(seeds - failed.count) clean, \(failed.count) failed\(failed.isEmpty ? "" : " \(failed)")")
        print(
            String(
                format: "simulated %.2f h in %.1f s CPU (%.1f s wall): %.0f simulated s per CPU s, %.1f seeds per minute; "
                    + "%d calls, %d required deliveries, %d connections with crossed auth changes (auth not compared)",
                simulatedSeconds / 3600, cpu, wall, simulatedSeconds / cpu, Double(seeds) / wall * 60, calls, required, crossings))
        exit(failed.isEmpty ? 0 : 1)
    }

    /// Prints a failing seed's violation, then replays it with tracing on and prints the trace.
    static func report(_ violation: Violation, options: SimulationOptions, time: Int, clients: Int, faults: Bool, traceWindow: Int) {
        print("seed \(options.seed) FAILED: \(violation)")
        var replay = options
        replay.tracing = true
        // A violation found after faults stopped (convergence, quiescence) was caused before: the
        // trace then reaches back to `traceWindow` seconds before the faults stopped.
        let afterFaults = Int(violation.time.nanoseconds / 1_000_000_000) - time
        let window = afterFaults > 0 ? traceWindow + afterFaults + 1 : traceWindow
        replay.traceWindow = .seconds(window)
        let simulator = Simulator(options: replay)
        let again = simulator.run()
        if again.violations.first != violation {
            print("warning: the traced replay ended differently: \(again.violations.first.map(String.init(describing:)) ?? "no violation")")
        }
        print("trace of the last \(window) simulated seconds:")
        print(simulator.trace.rendered(), terminator: "")
        print(
            "replay: swift run simulate --seed \(options.seed) --time \(time) --clients \(clients)\(faults ? "" : " --no-faults") "
                + "--trace-window \(window) --generation \(options.generation)"
        )
    }

    /// CPU time this process used, in seconds (`clock()`: user and system).
    static func cpuSeconds() -> Double {
        Double(clock()) / Double(CLOCKS_PER_SEC)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("simulate: \(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
