import Foundation
import PubSubBroker

/// `demo broker`: the embedded broker with the chat services, in the foreground until Ctrl-C
/// (or SIGTERM), logging connections and disconnections.
struct BrokerCommand {
    var host: String
    var port: Int
    /// The packet codec clients must speak (`--codec`).
    var codec: CodecChoice = .json

    func run() async -> Int32 {
        MemoryTuning.returnLargeBlocksAtOnce()
        var options = BrokerOptions()
        options.codec = codec.codec
        let broker: PubSubBroker
        do {
            broker = try await PubSubBroker.start(host: host, port: port, options: options)
        } catch {
            Output.error("demo broker: \(error)")
            return 1
        }
        let stopRequests = Signals.stopRequests()
        ChatServices(broker: broker).install()
        broker.onConnection { socket in Output.line("connect     \(socket.id)") }
        // A close reason is the client's text: escaped, so it cannot clear the screen or forge a line.
        broker.onDisconnection { left in
            Output.line(
                "disconnect  \(left.socket.id) \(left.code)" + (left.reason.isEmpty ? "" : " \(left.reason.escapedForDisplay)"))
        }
        let codecNote = codec == .json ? "" : ", codec \(codec.rawValue)"
        Output.line("broker listening on \(broker.url.absoluteString)\(codecNote) (Ctrl-C stops it)")

        for await signal in stopRequests {
            Output.line("\(signal), stopping")
            break
        }
        await broker.stop()
        Output.line("broker stopped")
        return 0
    }
}
