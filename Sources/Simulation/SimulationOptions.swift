/// What one simulated run covers. Everything else (timeouts, back-off, limits, latencies, the
/// codec, fault rates) is drawn from the seed by `Scenario`.
package struct SimulationOptions: Sendable {
    /// The seed: the same seed and options replay the same run exactly.
    package var seed: UInt64
    /// Client sessions against the one broker.
    package var clients = 10
    /// Simulated time with workload and faults; afterwards faults stop, the workload stops, and
    /// the run goes on until the convergence bound and the calls' timeouts have passed.
    package var activeTime: Duration = .seconds(120)
    /// Whether faults are injected (off: latency only).
    package var faults = true
    /// Whether the trace records events (a failing seed is replayed with it on).
    package var tracing = false
    /// Simulated time the trace keeps.
    package var traceWindow: Duration = .seconds(20)
    /// Which generation of the workload runs. A seed replays exactly only with the generation it
    /// ran with; a new generation adds to what a run may do without changing the runs of the
    /// older one. 1: the original workload. 2 (the latest): also the broker's authorization
    /// hooks (subscribe, publish, handshake; some calls refused while faults run), protocol-1
    /// pings, and calls cancelled by their caller.
    package var generation = SimulationOptions.latestGeneration

    /// The latest workload generation.
    package static let latestGeneration = 2

    package init(seed: UInt64) {
        self.seed = seed
    }
}
