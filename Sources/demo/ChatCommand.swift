import Foundation
import PubSubClient

/// `demo chat`: an interactive chat in one room of any SocketCluster server, using only
/// standard pub/sub: join, leave, typing and message objects published on `chat/<room>`.
struct ChatCommand {
    var url: String
    var name: String
    var room: String
    /// How long connecting, the handshake and each acknowledged call may take.
    var timeout: Duration
    /// An HTTP proxy to tunnel through (`--proxy`).
    var proxy: HTTPProxy? = nil
    /// Which server pings to answer (`--protocol`); both by default.
    var pingProtocol: PingProtocolVersion = .automatic
    /// The server's packet codec (`--codec`); JSON by default.
    var codec: CodecChoice = .json

    /// Least time between two typing notices.
    private static let typingInterval: Duration = .seconds(3)

    /// On the main actor, so that nothing runs on Swift concurrency's global executor before the
    /// chat is on the client's: an idle chat then wakes its process only for the server's pings
    /// (on Linux the global executor's thread pool brings a timer that fires once a second).
    @MainActor
    func run() async -> Int32 {
        let address: ServerAddress
        do {
            address = try ServerAddress(url: url)
        } catch {
            Output.error("demo chat: \(error.message)")
            return 2
        }
        var configuration = SessionConfiguration(address: address)
        configuration.protocolVersion = pingProtocol
        configuration.codec = codec.codec
        configuration.connectTimeout = timeout
        configuration.ackTimeout = timeout
        configuration.reconnectPolicy = ReconnectPolicy(initialDelay: .seconds(1), randomness: .seconds(1), maxDelay: .seconds(15))
        var webSocketOptions = WebSocketOptions()
        webSocketOptions.proxy = proxy
        let client = PubSubClient(configuration: configuration, webSocketOptions: webSocketOptions)
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return await chat(client, url: url) }
        // apple-runtime-check: guarded
        return await withTaskExecutorPreference(client.executor) { await chat(client, url: url) }
    }

    /// The chat itself, on the client's executor where there is one: every answer, publication and
    /// typed line resumes it on the client's queue.
    private func chat(_ client: PubSubClient, url: String) async -> Int32 {
        let name = self.name
        let channel = ChatMessage.channel(room: room)
        let me = ChatMessage.newSenderID()
        let say = { (type: ChatMessage.Kind, text: String?) in ChatMessage(type: type, name: name, text: text, from: me).json }

        let publications: AsyncStream<JSONValue?>
        do {
            try await client.connect()
            try await client.subscribe(channel)
            // Listen before announcing ourselves, so no answer to the join is missed.
            publications = client.channel(channel)
            try await client.publishAck(channel, say(.join, nil))
        } catch {
            await client.close()
            Output.error("demo chat: cannot chat on \(url.escapedForDisplay): \(Self.explain(error))")
            return 1
        }

        let console = Console(prompt: "\(name.escapedForDisplay)> ")
        let incoming = Self.task(on: client) {
            await Self.showRoom(
                publications, console: console, me: me, name: name,
                client: client, channel: channel)
        }
        let events = client.events()
        let connection = Self.task(on: client) { await Self.showConnection(events, console: console) }
        // Ctrl-C (and SIGTERM, SIGHUP) leave the room like /quit, restoring the terminal.
        Signals.handle([SIGINT, SIGTERM, SIGHUP]) { _ in console.interrupt() }
        console.show(
            "* connected to \(url.escapedForDisplay) as \(name.escapedForDisplay), room \(room.escapedForDisplay) (type a message, /quit to leave)")

        var lastTyping: ContinuousClock.Instant?
        input: for await input in console.inputs() {
            switch input {
            case .startedTyping(let first):
                if first == "/" { continue }  // a command, not chat
                let now = ContinuousClock.now
                if let lastTyping, now - lastTyping < Self.typingInterval { continue }
                lastTyping = now
                try? client.publish(channel, say(.typing, nil))
            case .line(let line):
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.isEmpty { continue }
                if text == "/quit" { break input }
                if text.hasPrefix("/") {
                    console.show("* unknown command \(text.escapedForDisplay) (/quit leaves)")
                    continue
                }
                lastTyping = nil
                do { try client.publish(channel, say(.message, text)) } catch { console.show("* not sent: \(error.message)") }
            case .end, .interrupt:
                break input
            }
        }

        // Leave cleanly: say goodbye, wait for the server to take it, close with 1000.
        try? await client.publishAck(channel, say(.leave, nil), ackTimeout: .seconds(2))
        incoming.cancel()
        connection.cancel()
        await client.close()
        console.restore()
        return 0
    }

    /// A task preferring the client's executor where there is one.
    private static func task(on client: PubSubClient, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return Task(operation: body) }
        // apple-runtime-check: guarded
        return Task(executorPreference: client.executor, operation: body)
    }

    /// Prints what others publish in the room, and tells each newcomer who is already here.
    private static func showRoom(
        _ publications: AsyncStream<JSONValue?>, console: Console, me: String, name: String,
        client: PubSubClient, channel: String
    ) async {
        for await publication in publications {
            guard let message = ChatMessage(publication), message.isShown(to: me) else { continue }
            console.show(message.display)
            if message.type == .join {
                try? client.publish(channel, ChatMessage(type: .here, name: name, from: me, to: message.from).json)
            }
        }
    }

    /// Prints connection losses and recoveries (the client reconnects and resubscribes by itself).
    /// A close reason is the server's text, escaped; an error's message escapes its own.
    private static func showConnection(_ events: AsyncStream<SessionEvent>, console: Console) async {
        for await event in events {
            switch event {
            case .disconnected(let close):
                let reason = close.reason.isEmpty ? "" : " \(close.reason.escapedForDisplay)"
                console.show("* connection lost (\(close.code.rawValue)\(reason)), reconnecting…")
            case .connected:
                console.show("* reconnected")
            case .subscribeFailed(let failure):
                console.show("* could not rejoin \(failure.channel): \(failure.error.message)")
            default:
                break
            }
        }
    }

    /// One line saying why the chat could not start. WebSocket failures (refused, unknown host,
    /// an HTTP answer instead of the upgrade) have the code `.transport` and describe themselves. The
    /// server's text (a close reason, a remote error) is escaped: errors' descriptions and
    /// messages escape it themselves, a reason taken from an error's data is escaped here.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? PubSubError else { return "\(error)" }
        let code = error.closeCode.map { String($0.rawValue) } ?? "?"
        switch error.code {
        case .connectionFailed where error.closeCode == .serverPingTimedOut || error.closeCode == .handshakeFailed:
            // Before the handshake, 4000 (no ping) and 4003 (no handshake answer) mean the same.
            return "no answer to the SocketCluster handshake (is this a SocketCluster server?)"
        case .connectionFailed:
            let reason = error.closeReason ?? ""
            return reason.isEmpty ? "the connection closed with code \(code)" : reason.escapedForDisplay
        case .handshakeRejected:
            return "the server refused the handshake with code \(code): \(error.remote?.description ?? error.message)"
        case .remote:
            return error.description  // the server's error name and message
        default:
            return error.message
        }
    }
}
