// wirebench: a WireKit WebSocket client following the benchmark contract (rtt, pipeline, bulk,
// connections against an echo server; every echo verified byte for byte; one JSON line on stdout).
// Run the release build: `swift build -c release --product wirebench`.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WireKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    BenchReport.emit("wirebench: \(error)\n\(BenchOptions.usage)\n", to: 2)
    exit(2)
}

let report: BenchReport
switch options.mode {
case .rtt, .pipeline, .bulk:
    do {
        report = try EchoRun(options: options).run()
    } catch {
        BenchReport.fail("\(error)")
    }
case .connections:
    report = ConnectionsRun(options: options).run()
}
report.print()
exit(0)
