import Foundation

/// The demo's entry point: parses the command line and runs the story, the broker or the chat.
@main
enum Demo {
    static func main() async {
        let command: Command
        do {
            command = try Command(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            Output.error("demo: \(error)")
            Output.error(Command.hint)
            exit(2)
        }
        switch command {
        case .help:
            Output.line(Command.usage)
        case .story(let trace):
            exit(await Story(trace: trace).run())
        case .broker(let host, let port, let codec, let deflate):
            exit(await BrokerCommand(host: host, port: port, codec: codec, deflate: deflate).run())
        case .chat(let url, let name, let room, let timeout, let proxy, let pingProtocol, let codec):
            exit(
                await ChatCommand(
                    url: url, name: name, room: room, timeout: .seconds(timeout), proxy: proxy, pingProtocol: pingProtocol,
                    codec: codec
                ).run())
        }
    }
}
