import Foundation
import PubSubBroker

/// `demo broker`: the embedded broker with the chat services, in the foreground until Ctrl-C
/// (or SIGTERM), logging connections and disconnections. It serves the web chat page at `/` on
/// the same port (with the JSON codec, the only one the page speaks) and answers
/// `/health-check`.
struct BrokerCommand {
    var host: String
    var port: Int
    /// The packet codec clients must speak (`--codec`).
    var codec: CodecChoice = .json
    /// Whether clients that offer permessage-deflate get it (`--deflate`; browsers offer it).
    var deflate = false

    func run() async -> Int32 {
        MemoryTuning.returnLargeBlocksAtOnce()
        var options = BrokerOptions()
        options.codec = codec.codec
        if deflate { options.perMessageDeflate = PerMessageDeflateOptions() }
        let servesPage = codec == .json
        if servesPage {
            options.httpRequestHandler = { request in WebChatPage.isRequested(by: request) ? WebChatPage.response : nil }
        }
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
        if servesPage { Output.line("web chat on \(Self.pageURL(forBrokerURL: broker.url)) (open it in a browser; demo chat users share its rooms)") }

        for await signal in stopRequests {
            Output.line("\(signal), stopping")
            break
        }
        await broker.stop()
        Output.line("broker stopped")
        return 0
    }

    /// The page's address: the broker's, over HTTP, at `/`. A broker bound to every address
    /// (`0.0.0.0`, `::`) is reached over loopback, which browsers open without a second thought.
    static func pageURL(forBrokerURL url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        components.scheme = components.scheme == "wss" ? "https" : "http"
        switch components.host {
        case "0.0.0.0": components.host = "127.0.0.1"
        case "::", "[::]": components.host = "[::1]"
        default: break
        }
        components.path = "/"
        return components.string ?? "/"
    }
}
