// swift-tools-version:6.0
import PackageDescription

// No package dependencies, by design: everything here is first-party code on Foundation,
// Dispatch and the C libraries every Swift-on-Linux install already carries.
let package = Package(
    name: "pubsub-swift",
    // watchOS builds, but there BSD sockets never reach the network and Network.framework does
    // only in the cases Apple's TN3135 allows: `wss://` clients in audio-streaming and CallKit VoIP
    // apps (README, "Platforms").
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    // What a depending package can use. The benchmark and conformance executables are targets
    // only: `swift run wirebench`, `swift build --product wirebench` still work in this package.
    products: [
        .library(name: "WireKit", targets: ["WireKit"]),
        // The wire model on its own (PubSubClient and PubSubBroker re-export it).
        .library(name: "PubSubProtocol", targets: ["PubSubProtocol"]),
        .library(name: "PubSubClient", targets: ["PubSubClient"]),
        .library(name: "PubSubBroker", targets: ["PubSubBroker"]),
        .executable(name: "demo", targets: ["demo"]),
    ],
    targets: [
        // SHA-1, SHA-256 and HMAC, shared by the WebSocket handshake, TLS pinning and JWT.
        .target(name: "Digests"),
        // What the sans-I/O cores (WebSocket, client session, broker) share: the monotonic instant
        // they take as `now`, the deadline heap behind their one timer, the queue of their actions.
        .target(name: "MonotonicTime"),
        // Escapes a peer's text (close reasons, HTTP bodies and headers, names) before it meets a
        // terminal or a log: control, bidi and invisible characters as `\u{1B}`-style escapes.
        .target(name: "PeerText"),
        // UTF-8 validation of 32-byte blocks with AVX2 where the CPU has it (chosen at run time;
        // Swift's baseline x86-64 target cannot use those instructions), for WireKit's validator.
        .target(name: "CUTF8Blocks"),
        // epoll, eventfd and thread names for WireKit's event loop on Linux (Glibc's module lacks them).
        .target(name: "CLinuxEvents"),
        // RFC 6455 WebSocket: sans-I/O core, TCP and TLS transports, client and server roles.
        .target(name: "WireKit", dependencies: ["CLinuxEvents", "CUTF8Blocks", "Digests", "MonotonicTime", "PeerText"]),
        // The SocketCluster wire model shared by client and broker: JSON value, packets, JWT.
        .target(name: "PubSubProtocol", dependencies: ["Digests", "PeerText"]),
        .target(name: "PubSubClient", dependencies: ["WireKit", "PubSubProtocol", "MonotonicTime", "PeerText"]),
        .target(name: "PubSubBroker", dependencies: ["WireKit", "PubSubProtocol", "Digests", "MonotonicTime", "PeerText"]),
        .executableTarget(name: "demo", dependencies: ["PubSubClient", "PubSubBroker"]),
        // The deterministic simulator: the real session and broker cores over a simulated network
        // and clock, driven by one seed (`swift run simulate --help`).
        .target(name: "Simulation", dependencies: ["PubSubClient", "PubSubBroker", "MonotonicTime"]),
        .executableTarget(name: "simulate", dependencies: ["Simulation"]),
        // Autobahn|Testsuite echo client for the WireKit client role (Scripts/autobahn/run-client.sh).
        .executableTarget(name: "wirekit-autobahn-client", dependencies: ["WireKit"], path: "Conformance/wirekit-autobahn-client"),
        // Autobahn|Testsuite echo server for the WireKit server role (Scripts/autobahn/run-server.sh).
        .executableTarget(name: "wirekit-autobahn-server", dependencies: ["WireKit"], path: "Conformance/wirekit-autobahn-server"),
        // WebSocket client benchmark following the shared bench contract (modes rtt, pipeline, bulk, connections).
        // What the benchmark executables share: clock, result line, option reader, timing loops.
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport"),
        .executableTarget(name: "wirebench", dependencies: ["WireKit", "BenchSupport"], path: "Benchmarks/wirebench"),
        // The SocketCluster client benchmark (invoke round trips, pipelining, fan-out, connections).
        .executableTarget(name: "pubsubbench", dependencies: ["PubSubClient", "PubSubBroker", "BenchSupport"], path: "Benchmarks/pubsubbench"),
        // Microbenchmarks of the SocketCluster wire model (frame parse + classify, serialize).
        .executableTarget(name: "pubsub-microbench", dependencies: ["PubSubProtocol", "BenchSupport"], path: "Benchmarks/pubsub-microbench"),
        // Microbenchmarks of the WebSocket core (frame codec, masking, UTF-8); run in release.
        .executableTarget(name: "wirekit-microbench", dependencies: ["WireKit", "BenchSupport"], path: "Benchmarks/wirekit-microbench"),
        // permessage-deflate on vs off for JSON-like text (throughput, wire bytes, CPU); run in release.
        .executableTarget(name: "wirekit-deflatebench", dependencies: ["WireKit", "BenchSupport"], path: "Benchmarks/wirekit-deflatebench"),
        // How often an idle connected client wakes its process.
        .executableTarget(name: "idlebench", dependencies: ["PubSubClient"], path: "Benchmarks/idlebench"),

        // The fuzz targets' checks (Scripts/fuzz.sh builds the libFuzzer entry points of Fuzz/Entry
        // around them; FuzzHarnessTests replays the committed corpus through them).
        .target(name: "FuzzHarness", dependencies: ["WireKit", "PubSubProtocol", "PubSubClient"], path: "Fuzz/Harness"),

        .testTarget(name: "DigestsTests", dependencies: ["Digests"]),
        .testTarget(
            name: "WireKitTests", dependencies: ["WireKit", "TestSupport"],
            exclude: ["Interop/peers", "TLSCertificates", "TLS/peers"]),
        .testTarget(name: "PubSubProtocolTests", dependencies: ["PubSubProtocol"]),
        .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"], path: "Fuzz/Tests"),
        // What more than one test target needs (not a test target itself, so others can import it).
        .target(name: "TestSupport", dependencies: ["WireKit"], path: "Tests/TestSupport"),
        .testTarget(name: "PubSubClientTests", dependencies: ["PubSubClient", "PubSubBroker", "TestSupport"]),
        .testTarget(name: "PubSubBrokerTests", dependencies: ["PubSubBroker", "PubSubClient", "TestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "PubSubClient", "PubSubBroker"]),
        // Runs the built `demo` executable (story, broker, chat through pipes). Depending on the
        // executable target makes SwiftPM build it before the tests, and lets the tests import it.
        .testTarget(name: "DemoTests", dependencies: ["demo", "PubSubClient", "PubSubBroker", "WireKit", "TestSupport"]),
    ]
)
