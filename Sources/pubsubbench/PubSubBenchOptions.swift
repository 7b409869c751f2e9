/// The command line of `pubsubbench`, in the style of the WebSocket benchmark contract:
/// `--url URL --mode MODE [--count N] [--size BYTES] [--window W] [--subscribers S]
/// [--connections C]`, or `--embedded-broker` instead of `--url`, or `--serve-broker PORT` to run
/// only the broker. Options in any order; unknown ones are rejected.
struct PubSubBenchOptions: Sendable {
    /// What one run measures.
    enum Mode: String, Sendable {
        /// One invoke of `echo` in flight at a time.
        case invokeRTT = "invoke-rtt"
        /// `window` invokes of `echo` in flight.
        case invokePipeline = "invoke-pipeline"
        /// `subscribers` connections subscribed to one channel, one publisher, `count` publications.
        case publishFanout = "publish-fanout"
        /// `connections` clients handshaken and subscribed.
        case connections
    }

    /// The SocketCluster URL (`ws://host:port/socketcluster/`); empty with `--embedded-broker`.
    var url = ""
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
    /// Only run a broker with an `echo` procedure on this port (0: any), until killed.
    var servePort: Int?

    /// Why the command line was refused.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage = """
        usage: pubsubbench (--url ws://HOST:PORT/socketcluster/ | --embedded-broker) --mode invoke-rtt|invoke-pipeline|publish-fanout|connections \
        [--count N] [--size BYTES] [--window W] [--subscribers S] [--connections C]
               pubsubbench --serve-broker PORT
        """

    init(arguments: [String]) throws(UsageError) {
        var seenMode = false
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[index]
        }
        func integer(_ name: String, minimum: Int) throws(UsageError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number >= minimum else {
                throw UsageError(description: "\(name) needs an integer >= \(minimum), got '\(text)'")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--url": url = try value(argument)
            case "--mode":
                let text = try value(argument)
                guard let parsed = Mode(rawValue: text) else { throw UsageError(description: "unknown mode '\(text)'") }
                mode = parsed
                seenMode = true
            case "--count": count = try integer(argument, minimum: 1)
            case "--size": size = try integer(argument, minimum: 0)
            case "--window": window = try integer(argument, minimum: 1)
            case "--subscribers": subscribers = try integer(argument, minimum: 1)
            case "--connections": connections = try integer(argument, minimum: 1)
            case "--embedded-broker": embeddedBroker = true
            case "--serve-broker": servePort = try integer(argument, minimum: 0)
            default: throw UsageError(description: "unknown option '\(argument)'")
            }
            index += 1
        }
        if servePort != nil { return }
        guard !url.isEmpty || embeddedBroker else { throw UsageError(description: "--url or --embedded-broker is required") }
        guard url.isEmpty || !embeddedBroker else { throw UsageError(description: "--url and --embedded-broker exclude each other") }
        guard seenMode else { throw UsageError(description: "--mode is required") }
        switch mode {
        case .invokeRTT, .invokePipeline, .publishFanout:
            guard count > 0 else { throw UsageError(description: "--count is required in \(mode.rawValue) mode") }
        case .connections:
            guard connections > 0 else { throw UsageError(description: "--connections is required in connections mode") }
        }
        if mode == .invokeRTT { window = 1 }
    }
}
