import Foundation
import PubSubBroker

/// What the demo's broker offers: `login` issuing a JWT, `whoami` reading it back (failing
/// when the caller has not logged in), a check that `chat/` publications are chat messages,
/// and a `leave` published for anyone who vanishes from a room without saying goodbye.
struct ChatServices {
    let broker: PubSubBroker
    private let presence = RoomPresence()

    init(broker: PubSubBroker) { self.broker = broker }

    /// Registers the procedures and hooks on `broker`.
    func install() {
        broker.procedure("login") { request in
            guard let name = request.data?["username"]?.stringValue, !name.isEmpty else {
                throw RemoteError(name: "LoginError", message: "A username is required", fields: ["field": "username"])
            }
            // Pushes #setAuthToken with the signed JWT before the answer goes out.
            try request.socket.setAuthToken(["username": .string(name)])
            return nil
        }

        broker.procedure("whoami") { request in
            guard let name = request.socket.authToken?["username"] else {
                throw RemoteError(name: "AuthRequiredError", message: "Log in first", fields: ["code": 401])
            }
            return ["username": name, "socketId": .string(request.socket.id)]
        }

        let presence = self.presence
        broker.authorizePublish { request in
            guard request.channel.hasPrefix("chat/") else { return }
            guard let message = ChatMessage(request.data) else {
                throw RemoteError(
                    name: "InvalidChatMessageError",
                    message: "Publications on chat/ channels are {type, name, from, text?} objects")
            }
            presence.record(message, socketID: request.socket.id, channel: request.channel)
        }

        broker.onDisconnection { [broker] left in
            for (channel, message) in presence.forget(socketID: left.socket.id) {
                broker.publish(channel: channel, data: ChatMessage(type: .leave, name: message.name, from: message.from).json)
            }
        }
    }
}

/// Who joined which room and has not left yet, by socket id.
/// `@unchecked Sendable`: `rooms` is only touched while holding `lock`.
private final class RoomPresence: @unchecked Sendable {
    private let lock = NSLock()
    private var rooms: [String: [String: ChatMessage]] = [:]

    /// Notes a join or leave seen on `channel`.
    func record(_ message: ChatMessage, socketID: String, channel: String) {
        lock.withLock {
            switch message.type {
            case .join: rooms[socketID, default: [:]][channel] = message
            case .leave: rooms[socketID]?[channel] = nil
            case .typing, .message, .here: break
            }
        }
    }

    /// The rooms `socketID` joined without leaving (channel → its join), now forgotten.
    func forget(socketID: String) -> [(String, ChatMessage)] {
        lock.withLock {
            let joined = rooms.removeValue(forKey: socketID) ?? [:]
            return joined.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }
}
