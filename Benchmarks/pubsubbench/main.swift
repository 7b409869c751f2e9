// pubsubbench: a PubSubClient benchmark against any SocketCluster server (invoke-rtt,
// invoke-pipeline, publish-own, channel-flood, publish-fanout, connections, flooded-app; with `--api async` the async face
// instead of the closure one, `--api async-executor` with its tasks on the client's executor; every answer and publication verified; one JSON
// line on stdout, as in the WebSocket benchmark contract). `--embedded-broker` runs against an
// in-process PubSubBroker; `--serve-broker PORT` runs only that broker (with its `echo` procedure).
// Run the release build: `swift build -c release --product pubsubbench`.
import Foundation
import PubSubBroker
import BenchSupport

let options = CommandLineManners.options(usage: PubSubBenchOptions.usage, PubSubBenchOptions.init(arguments:))

if let port = options.servePort {
    do {
        let broker = try await BenchBroker.start(port: port, codec: options.codec.codec)
        print("broker listening on \(broker.url.absoluteString)")
        fflush(nil)
        while true { try? await Task.sleep(for: .seconds(3600)) }
    } catch {
        BenchReport.fail("broker: \(error)")
    }
}

var broker: PubSubBroker?
var url = options.url
if options.embeddedBroker {
    do {
        let started = try await BenchBroker.start(port: 0, codec: options.codec.codec)
        broker = started
        url = started.url.absoluteString
    } catch {
        BenchReport.fail("embedded broker: \(error)")
    }
}

let report: BenchReport
switch options.mode {
case .invokeRTT, .invokePipeline:
    report =
        options.api != .closures
        ? await AsyncInvokeRun(options: options, url: url).run()
        : await InvokeRun(options: options, url: url).run()
case .publishOwn:
    report =
        options.api != .closures
        ? await AsyncPublishOwnRun(options: options, url: url).run()
        : await PublishOwnRun(options: options, url: url).run()
case .channelFlood:
    report =
        options.api != .closures
        ? await AsyncChannelFloodRun(options: options, url: url).run()
        : await ChannelFloodRun(options: options, url: url).run()
case .publishFanout:
    report = await FanoutRun(options: options, url: url).run()
case .connections:
    report = await ConnectionsRun(options: options, url: url).run()
case .floodedApp:
    report = await FloodedAppRun(options: options, url: url).run()
}
report.print()
exit(0)
