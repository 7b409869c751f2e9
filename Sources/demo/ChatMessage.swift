import PubSubClient

/// What the chat publishes on a room channel. Only standard publish/subscribe carries it, so
/// the chat works against any SocketCluster server.
///
/// `{"type":"message","name":"bob","text":"hi","from":"k3J9xQ2a"}`
struct ChatMessage: Codable, Sendable, Equatable {
    /// The kinds of publication a room sees.
    enum Kind: String, Codable, Sendable {
        /// Someone entered the room.
        case join
        /// Someone left the room.
        case leave
        /// Someone started typing a line.
        case typing
        /// A line of chat.
        case message
        /// An answer to a `join`: "I am already here".
        case here
    }

    /// What happened.
    var type: Kind
    /// The display name of the sender.
    var name: String
    /// The line, for `message`.
    var text: String?
    /// A random id per chat session, to recognise one's own publications (names can repeat).
    var from: String
    /// For `here`: the `from` of the newcomer it answers (the others need not see it).
    var to: String?

    /// The channel of `room`.
    static func channel(room: String) -> String { "chat/\(room)" }

    /// A random sender id (8 URL-safe characters).
    static func newSenderID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<8).map { _ in alphabet.randomElement() ?? "x" })
    }

    /// The publication as a JSON value.
    var json: JSONValue {
        var members: [String: JSONValue] = ["type": .string(type.rawValue), "name": .string(name), "from": .string(from)]
        if let text { members["text"] = .string(text) }
        if let to { members["to"] = .string(to) }
        return .object(members)
    }

    /// Reads a publication; nil when it is not a chat message.
    init?(_ json: JSONValue?) {
        guard let json, let message = try? json.decode(ChatMessage.self) else { return nil }
        self = message
    }

    init(type: Kind, name: String, text: String? = nil, from: String, to: String? = nil) {
        self.type = type
        self.name = name
        self.text = text
        self.from = from
        self.to = to
    }

    /// Whether the chat session `me` shows this publication: not its own, and a `here` only
    /// when it answers `me`'s join.
    func isShown(to me: String) -> Bool {
        from != me && (type != .here || to == me)
    }

    /// How the chat shows it (`<bob> hi`, `* bob joined`). The name and the line are another
    /// participant's text: escaped, so that they cannot move the cursor or start a new line.
    var display: String {
        let name = name.escapedForDisplay
        switch type {
        case .join: return "* \(name) joined"
        case .leave: return "* \(name) left"
        case .typing: return "* \(name) is typing…"
        case .here: return "* \(name) is here"
        case .message: return "<\(name)> \((text ?? "").escapedForDisplay)"
        }
    }
}
