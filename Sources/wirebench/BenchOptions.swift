/// The command line of the benchmark contract:
/// `--url URL --mode MODE [--count N] [--size BYTES] [--window W] [--connections C] [--binary]`,
/// options in any order, unknown ones rejected.
struct BenchOptions: Sendable {
    /// What one run measures.
    enum Mode: String, Sendable {
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
    /// Which WireKit API drives the run: `callbacks` (default) or `async` (our own option, not
    /// part of the contract; rtt, pipeline and bulk only).
    var api = API.callbacks

    enum API: String, Sendable {
        case callbacks, async
    }

    /// Why the command line was refused.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage = "usage: wirebench --url ws://HOST:PORT/ --mode rtt|pipeline|bulk|connections [--count N] [--size BYTES] [--window W] [--connections C] [--binary] [--api callbacks|async]"

    /// Parses `arguments` (without the program name).
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
            case "--connections": connections = try integer(argument, minimum: 1)
            case "--binary": binary = true
            case "--api":
                let text = try value(argument)
                guard let parsed = API(rawValue: text) else { throw UsageError(description: "unknown API '\(text)' (callbacks or async)") }
                api = parsed
            default: throw UsageError(description: "unknown option '\(argument)'")
            }
            index += 1
        }
        guard !url.isEmpty else { throw UsageError(description: "--url is required") }
        guard seenMode else { throw UsageError(description: "--mode is required") }
        switch mode {
        case .rtt, .pipeline, .bulk:
            guard count > 0 else { throw UsageError(description: "--count is required in \(mode.rawValue) mode") }
        case .connections:
            guard connections > 0 else { throw UsageError(description: "--connections is required in connections mode") }
        }
        if mode == .connections && api == .async { throw UsageError(description: "--api async covers rtt, pipeline and bulk") }
        if mode == .rtt { window = 1 }
        if mode == .bulk { binary = true }
    }
}
