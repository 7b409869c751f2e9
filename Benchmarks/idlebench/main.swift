// idlebench: how often a connected, idle PubSubClient wakes its process. Connects to a
// SocketCluster server, waits a second for the connection to settle, then does nothing for
// `--seconds` and prints one JSON line with the voluntary context switches of all the process's
// threads over that time (getrusage), the wake-ups per minute and the thread count.
//
//   idlebench --url ws://127.0.0.1:8000/socketcluster/ [--seconds 60] [--face closure|async|async-executor]
//
// `--face closure` (default) drives ScClient with callbacks on the main queue and no Swift
// concurrency; `--face async` connects PubSubClient from a task and sleeps in one. On Linux the
// second also counts libdispatch's worker-pool monitor, which Swift concurrency's thread pool
// starts (a timer once a second for the life of the process); Apple platforms have no such timer.
// `--face async-executor` connects PubSubClient from the main task preferring `client.executor`
// and waits on main-queue timers: no job reaches the global executor, so no monitor is started.
// Run the release build: `swift build -c release --product idlebench`.
import Dispatch
import Foundation
import PubSubClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct IdleOptions {
    var url = "ws://127.0.0.1:8000/socketcluster/"
    var seconds = 60.0
    var async = false
    var onClientExecutor = false

    init(arguments: [String]) {
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { IdleOptions.fail("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--url": url = value()
            case "--seconds":
                guard let seconds = Double(value()), seconds > 0 else { IdleOptions.fail("--seconds needs a positive number") }
                self.seconds = seconds
            case "--face":
                switch value() {
                case "closure": async = false
                case "async": async = true
                case "async-executor": (async, onClientExecutor) = (true, true)
                default: IdleOptions.fail("--face is closure, async or async-executor")
                }
            case "-h", "--help":
                print("usage: idlebench --url URL [--seconds 60] [--face closure|async|async-executor]")
                exit(0)
            default: IdleOptions.fail("unknown argument \(arguments[index])")
            }
            index += 1
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("idlebench: \(message)\n".utf8))
        exit(2)
    }
}

/// Voluntary context switches of every thread of the process so far.
func voluntarySwitches() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_nvcsw)
}

func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

func report(face: String, seconds: Double, switches: Int) -> Never {
    let perMinute = Double(switches) * 60 / seconds
    print(
        "{\"mode\":\"idle\",\"face\":\"\(face)\",\"seconds\":\(seconds),\"voluntary_switches\":\(switches),"
            + "\"wakeups_per_minute\":\(String(format: "%.1f", perMinute)),\"threads\":\(threadCount())}")
    fflush(nil)
    exit(0)
}

let options = IdleOptions(arguments: Array(CommandLine.arguments.dropFirst()))

/// Waits `seconds` on a main-queue timer (no Swift concurrency timer, which would run on the
/// global executor).
@MainActor func pause(seconds: Double) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { continuation.resume() }
    }
}

if options.onClientExecutor {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { IdleOptions.fail("async-executor needs macOS 15") }
    let client: PubSubClient
    do { client = try PubSubClient(url: options.url) } catch { IdleOptions.fail("\(error)") }
    // apple-runtime-check: guarded
    await withTaskExecutorPreference(client.executor) {
        do { _ = try await client.connect() } catch { IdleOptions.fail("connect: \(error)") }
        await pause(seconds: 1)
        let before = voluntarySwitches()
        await pause(seconds: options.seconds)
        guard client.state == .open else { IdleOptions.fail("the connection did not stay open") }
        report(face: "async-executor", seconds: options.seconds, switches: voluntarySwitches() - before)
    }
} else if options.async {
    let client: PubSubClient
    do { client = try PubSubClient(url: options.url) } catch { IdleOptions.fail("\(error)") }
    do { _ = try await client.connect() } catch { IdleOptions.fail("connect: \(error)") }
    try? await Task.sleep(for: .seconds(1))
    let before = voluntarySwitches()
    try? await Task.sleep(for: .seconds(options.seconds))
    guard client.state == .open else { IdleOptions.fail("the connection did not stay open") }
    report(face: "async", seconds: options.seconds, switches: voluntarySwitches() - before)
} else {
    let client: ScClient
    do { client = try ScClient(url: options.url) } catch { IdleOptions.fail("\(error)") }
    client.setBasicListener(
        onConnect: { client in
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                let before = voluntarySwitches()
                DispatchQueue.main.asyncAfter(deadline: .now() + options.seconds) {
                    guard client.isConnected() else { IdleOptions.fail("the connection did not stay open") }
                    report(face: "closure", seconds: options.seconds, switches: voluntarySwitches() - before)
                }
            }
        },
        onConnectError: { _, info in IdleOptions.fail("connect: \(info)") },
        onDisconnect: { _, info in IdleOptions.fail("disconnected: \(info)") })
    if ProcessInfo.processInfo.environment["IDLEBENCH_TRACE"] != nil {
        client.setEventListener { _, event in FileHandle.standardError.write(Data("event: \(event)\n".utf8)) }
    }
    client.connect()
    dispatchMain()
}
