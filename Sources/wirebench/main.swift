// wirebench: a WireKit WebSocket client following the benchmark contract (rtt, pipeline, bulk,
// connections against an echo server; every echo verified byte for byte; one JSON line on stdout).
// Run the release build: `swift build -c release --product wirebench`.
import Foundation
import WireKit

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("wirebench: \(error)\n\(BenchOptions.usage)\n".utf8))
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
