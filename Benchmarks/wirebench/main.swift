// wirebench: a WireKit WebSocket client following the benchmark contract (rtt, pipeline, bulk,
// connections against an echo server; every echo verified byte for byte; one JSON line on stdout).
// Run the release build: `swift build -c release --product wirebench`.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import WireKit
import BenchSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options = CommandLineManners.options(usage: BenchOptions.usage, BenchOptions.init(arguments:))

let report: BenchReport
switch (options.mode, options.api) {
case (.rtt, .callbacks), (.pipeline, .callbacks), (.bulk, .callbacks):
    do {
        report = try EchoRun(options: options).run()
    } catch {
        BenchReport.fail("\(error)")
    }
case (.rtt, .async), (.pipeline, .async), (.bulk, .async), (.rtt, .asyncExecutor), (.pipeline, .asyncExecutor), (.bulk, .asyncExecutor):
    // Detached: top-level code is on the main actor, whose thread waits on the semaphore.
    let box = ReportBox()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.report = await AsyncEchoRun.run(options: options)
        done.signal()
    }
    done.wait()
    guard let result = box.report else { BenchReport.fail("the async run produced no result") }
    report = result
case (.connections, _):
    report = ConnectionsRun(options: options).run()
}
report.print()
exit(0)

/// Carries the async run's result to the main thread. `@unchecked Sendable`: written once by the
/// task before it signals the semaphore the main thread waits on.
final class ReportBox: @unchecked Sendable {
    var report: BenchReport?
}
