import BenchSupport

/// The command line of the benchmark contract:
/// `--url URL --mode MODE [--count N] [--size BYTES] [--window W] [--connections C] [--binary]`,
/// options in any order, unknown ones rejected.
struct BenchOptions: Sendable {
    /// What one run measures.
    enum Mode: String, Sendable, CaseIterable {
        case rtt, pipeline, bulk, connections
    }

    var url = ""
    var mode = Mode.rtt
    /// Messages to send (rtt, pipeline, bulk).
    var count = 0
    /// Payload size of every message, in bytes.
    var size = 0
    /// Messages in flight (pipeline, bulk).
    var window = 1
    /// Connections to open (connections mode).
    var connections = 0
    /// Binary messages instead of text (`bulk` is always binary).
    var binary = false
    /// Which WireKit API drives the run: `callbacks` (default), `async`, or `async-executor` (the
    /// async run's task preferring the socket's executor); our own option, not part of the
    /// contract; rtt, pipeline and bulk only.
    var api = API.callbacks

    enum API: String, Sendable, CaseIterable {
        case callbacks, async
        case asyncExecutor = "async-executor"
    }

    static let usage = """
        usage: wirebench --url ws://HOST:PORT/ --mode rtt|pipeline|bulk|connections [--count N] [--size BYTES]
                         [--window W] [--connections C] [--binary] [--api callbacks|async|async-executor]
        A WireKit client following the shared benchmark contract: sends to an echo server, checks
        every echo byte for byte, prints one JSON line of results on standard output.
          --url URL          the echo server (ws:// or wss://)
          --mode MODE        rtt (one message in flight), pipeline (W in flight), bulk (binary, W in
                             flight), connections (open C connections, then close them)
          --count N          messages to send (rtt, pipeline, bulk)
          --size BYTES       payload size of every message (default 0)
          --window W         messages in flight (pipeline, bulk; default 1)
          --connections C    connections to open (connections mode)
          --binary           binary messages instead of text (bulk is always binary)
          --api API          callbacks (default), async, or async-executor (async with the task on the
                             socket's executor): which WireKit API drives rtt, pipeline, bulk
          -h, --help         this text
        \(CommandLineManners.benchmarkExitStatuses)
        """

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws(ArgumentReader.UsageError) {
        var seenMode = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.nextOption() {
            switch argument {
            case "--url": url = try reader.value(for: argument)
            case "--mode":
                mode = try reader.choice(for: argument, "mode")
                seenMode = true
            case "--count": count = try reader.integer(for: argument, minimum: 1)
            case "--size": size = try reader.integer(for: argument, minimum: 0)
            case "--window": window = try reader.integer(for: argument, minimum: 1)
            case "--connections": connections = try reader.integer(for: argument, minimum: 1)
            case "--binary": binary = true
            case "--api": api = try reader.choice(for: argument, "api")
            default: throw ArgumentReader.UsageError("unknown option '\(argument)'")
            }
        }
        guard !url.isEmpty else { throw ArgumentReader.UsageError("--url is required") }
        guard seenMode else { throw ArgumentReader.UsageError("--mode is required") }
        switch mode {
        case .rtt, .pipeline, .bulk:
            guard count > 0 else { throw ArgumentReader.UsageError("--count is required in \(mode.rawValue) mode") }
        case .connections:
            guard connections > 0 else { throw ArgumentReader.UsageError("--connections is required in connections mode") }
        }
        if mode == .connections && api != .callbacks { throw ArgumentReader.UsageError("--api \(api.rawValue) covers rtt, pipeline and bulk") }
        if mode == .rtt { window = 1 }
        if mode == .bulk { binary = true }
    }
}
