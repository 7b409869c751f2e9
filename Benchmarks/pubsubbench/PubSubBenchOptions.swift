import BenchSupport

/// The command line of `pubsubbench`, in the style of the WebSocket benchmark contract:
/// `--url URL --mode MODE [--count N] [--size BYTES] [--window W] [--subscribers S]
/// [--connections C] [--api closures|async|async-executor]`, or `--embedded-broker` instead of `--url`, or
/// `--serve-broker PORT` to run only the broker; `--mode flooded-app` takes `[--seconds S]
/// [--handle-ms MS]` (`--help` is answered before parsing). Options in any order;
/// unknown ones are rejected.
struct PubSubBenchOptions: Sendable {
    /// What one run measures.
    enum Mode: String, Sendable, CaseIterable {
        /// One invoke of `echo` in flight at a time.
        case invokeRTT = "invoke-rtt"
        /// `window` invokes of `echo` in flight.
        case invokePipeline = "invoke-pipeline"
        /// `subscribers` connections subscribed to one channel, one publisher, `count` publications.
        case publishFanout = "publish-fanout"
        /// One connection subscribed to a channel publishes to it with acknowledgement (`window`
        /// in flight) and receives its own `count` publications through the channel.
        case publishOwn = "publish-own"
        /// A publication flood through one channel: one connection subscribed to a channel
        /// publishes to it without acknowledgement and reads its own `count` publications back,
        /// `window` unread at most (the next half window is published each time half a window
        /// came back), so the server keeps the client's channel consumer busy.
        case channelFlood = "channel-flood"
        /// `connections` clients handshaken and subscribed.
        case connections
        /// The flooded app: `channel("flood")` read with the defaults, one publication
        /// handled per `handleMilliseconds`, for `seconds`, while `Scripts/flood/client-flood.py`
        /// publishes as fast as the server takes them; reports the peak RSS.
        case floodedApp = "flooded-app"
    }

    /// The SocketCluster URL (`ws://host:port/socketcluster/`); empty with `--embedded-broker`.
    /// Which face drives the run.
    enum API: String, Sendable, CaseIterable {
        /// `ScClient`, callbacks on one serial queue.
        case closures
        /// `PubSubClient`, async/await (`invoke`, `publishAck`, `channel()`).
        case async
        /// `PubSubClient` with the run's tasks preferring the client's executor
        /// (`withTaskExecutorPreference(client.executor)`).
        case asyncExecutor = "async-executor"
    }

    var url = ""
    var api = API.closures
    var mode = Mode.invokeRTT
    /// Invokes or publications.
    var count = 0
    /// Payload string length, in bytes (ASCII).
    var size = 32
    /// Invokes or publications in flight.
    var window = 1
    /// Subscriber connections (publish-fanout).
    var subscribers = 10
    /// Clients (connections mode).
    var connections = 0
    /// Start an in-process broker (with an `echo` procedure) and run against it.
    var embeddedBroker = false
    /// How long the flooded app runs, in seconds.
    var seconds = 12
    /// The flooded app's work per publication, in milliseconds.
    var handleMilliseconds = 10
    /// Only run a broker with an `echo` procedure on this port (0: any), until killed.
    var servePort: Int?
    /// The packet codec of the client and of the embedded or served broker.
    var codec = BenchCodec.json

    static let usage = """
        usage: pubsubbench (--url ws://HOST:PORT/socketcluster/ | --embedded-broker) \
        --mode invoke-rtt|invoke-pipeline|publish-own|publish-fanout|connections|flooded-app \
        [--count N] [--size BYTES] [--window W] [--subscribers S] [--connections C] [--api closures|async|async-executor] \
        [--seconds S] [--handle-ms MS] [--codec json|min-bin]
               pubsubbench --serve-broker PORT [--codec json|min-bin]
               pubsubbench -h | --help
        Measures a PubSubClient against a SocketCluster server (or an in-process PubSubBroker),
        verifies every answer and publication, prints one JSON line of results on standard output
        (with the codec and the wire bytes of one message's exchange, framing excluded).
        \(CommandLineManners.benchmarkExitStatuses)
        """

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
            case "--subscribers": subscribers = try reader.integer(for: argument, minimum: 1)
            case "--connections": connections = try reader.integer(for: argument, minimum: 1)
            case "--api": api = try reader.choice(for: argument, "api")
            case "--codec": codec = try reader.choice(for: argument, "codec")
            case "--seconds": seconds = try reader.integer(for: argument, minimum: 1)
            case "--handle-ms": handleMilliseconds = try reader.integer(for: argument, minimum: 0)
            case "--embedded-broker": embeddedBroker = true
            case "--serve-broker": servePort = try reader.integer(for: argument, minimum: 0)
            default: throw ArgumentReader.UsageError("unknown option '\(argument)'")
            }
        }
        if servePort != nil { return }
        guard !url.isEmpty || embeddedBroker else { throw ArgumentReader.UsageError("--url or --embedded-broker is required") }
        guard url.isEmpty || !embeddedBroker else { throw ArgumentReader.UsageError("--url and --embedded-broker exclude each other") }
        guard seenMode else { throw ArgumentReader.UsageError("--mode is required") }
        switch mode {
        case .invokeRTT, .invokePipeline, .publishOwn, .channelFlood, .publishFanout:
            guard count > 0 else { throw ArgumentReader.UsageError("--count is required in \(mode.rawValue) mode") }
        case .connections:
            guard connections > 0 else { throw ArgumentReader.UsageError("--connections is required in connections mode") }
        case .floodedApp:
            guard !embeddedBroker else {
                throw ArgumentReader.UsageError("flooded-app measures this process's memory: give a separate server's --url")
            }
        }
        if mode == .invokeRTT { window = 1 }
        if mode == .floodedApp { api = .async }
        if api != .closures, mode == .publishFanout || mode == .connections {
            throw ArgumentReader.UsageError("--api \(api.rawValue) covers invoke-rtt, invoke-pipeline, publish-own and channel-flood")
        }
    }
}
