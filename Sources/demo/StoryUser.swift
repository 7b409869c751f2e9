import Foundation
import PubSubClient

/// One participant of the story: a `PubSubClient` plus inboxes of what it receives.
final class StoryUser: Sendable {
    /// The name shown in the story and in chat messages.
    let name: String
    /// This user's sender id in chat messages.
    let from = ChatMessage.newSenderID()
    /// This user's connection.
    let client: PubSubClient
    /// Connection, auth and channel events, in order.
    let events: Inbox<SessionEvent>

    /// A user of the broker at `url`; with `trace`, every text frame is printed as it crosses.
    init(name: String, url: URL, trace: Bool) throws {
        // Reconnect after 200 ms, exactly (no randomness), so the story is quick and repeatable.
        var configuration = SessionConfiguration(address: try ServerAddress(url: url.absoluteString))
        configuration.ackTimeout = .seconds(5)
        configuration.reconnectPolicy = ReconnectPolicy(
            initialDelay: .milliseconds(200), randomness: .zero, multiplier: 1.5, maxDelay: .seconds(2))
        if trace {
            let label = "        " + name.padding(toLength: 6, withPad: " ", startingAt: 0)
            configuration.frameObserver = { direction, text in
                Output.line("\(label)\(direction == .sent ? "sends   " : "receives") \(text.escapedForDisplay)")
            }
        }
        self.name = name
        client = PubSubClient(configuration: configuration)
        events = Inbox(client.events())
    }

    /// A chat message from this user.
    func says(_ type: ChatMessage.Kind, _ text: String? = nil) -> ChatMessage {
        ChatMessage(type: type, name: name, text: text, from: from)
    }

    /// Subscribes to `channel`, waiting for the server's answer, and returns what arrives on it.
    func join(_ channel: String) async throws -> Inbox<JSONValue?> {
        try await client.subscribe(channel)
        return Inbox(client.channel(channel))
    }
}

extension Inbox where Element == JSONValue? {
    /// The next chat message from `user` of kind `type`, skipping anything else.
    func next(from user: StoryUser, _ type: ChatMessage.Kind, seenBy reader: String) async throws -> ChatMessage {
        let publication = try await next("\(reader) seeing \(user.name)'s \(type.rawValue)") {
            guard let message = ChatMessage($0) else { return false }
            return message.from == user.from && message.type == type
        }
        guard let message = ChatMessage(publication) else { throw StoryError("unreadable publication") }
        return message
    }
}
