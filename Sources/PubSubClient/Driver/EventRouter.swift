/// Fans session events out to the consumers a public face registered: event listeners,
/// receivers (server transmits by event name), channel consumers and procedure handlers.
/// Channels and events are separate namespaces, so a channel and an event may share a name.
///
/// `@unchecked Sendable`: used only on its driver's queue (registration goes through
/// `SessionDriver.run`, delivery happens inside the driver's listener).
final class EventRouter: @unchecked Sendable {
    typealias Handler<T> = @Sendable (T) -> Void
    /// Handlers in registration order (tokens only grow, so appending keeps them sorted):
    /// delivery walks the array as it is, with no sorting per event.
    typealias Registry<T> = [(token: UInt64, handler: Handler<T>)]

    private var nextToken: UInt64 = 0
    private(set) var eventListeners: Registry<SessionEvent> = []
    private var receivers: [String: Registry<JSONValue?>] = [:]
    private var channels: [String: Registry<JSONValue?>] = [:]
    private var channelFinishers: [UInt64: @Sendable () -> Void] = [:]
    private var procedures: [String: [(token: UInt64, handler: @Sendable (String, JSONValue?, ServerRequestID) -> Void)]] = [:]

    private func token() -> UInt64 {
        nextToken += 1
        return nextToken
    }

    func addEventListener(_ handler: @escaping Handler<SessionEvent>) -> UInt64 {
        let id = token()
        eventListeners.append((id, handler))
        return id
    }

    func addReceiver(_ event: String, _ handler: @escaping Handler<JSONValue?>) -> UInt64 {
        let id = token()
        receivers[event, default: []].append((id, handler))
        return id
    }

    func addChannelConsumer(
        _ channel: String, yield handler: @escaping Handler<JSONValue?>,
        finish: @escaping @Sendable () -> Void
    ) -> UInt64 {
        let id = token()
        channels[channel, default: []].append((id, handler))
        channelFinishers[id] = finish
        return id
    }

    /// The first handler registered for an event answers its requests.
    func addProcedure(_ event: String, _ handler: @escaping @Sendable (String, JSONValue?, ServerRequestID) -> Void) -> UInt64 {
        let id = token()
        procedures[event, default: []].append((id, handler))
        return id
    }

    func remove(_ id: UInt64) {
        eventListeners.removeAll { $0.token == id }
        channelFinishers.removeValue(forKey: id)
        for key in receivers.keys { receivers[key]?.removeAll { $0.token == id } }
        for key in channels.keys { channels[key]?.removeAll { $0.token == id } }
        for key in procedures.keys { procedures[key]?.removeAll { $0.token == id } }
        receivers = receivers.filter { !$0.value.isEmpty }
        channels = channels.filter { !$0.value.isEmpty }
        procedures = procedures.filter { !$0.value.isEmpty }
    }

    /// Ends and removes every consumer of `channel` (after an explicit unsubscribe).
    func finishChannelConsumers(_ channel: String) {
        guard let consumers = channels.removeValue(forKey: channel) else { return }
        for consumer in consumers { channelFinishers.removeValue(forKey: consumer.token)?() }
    }

    /// Registered receivers, channel consumers and procedures (event listeners excluded).
    var consumerCount: Int {
        receivers.values.reduce(0) { $0 + $1.count } + channels.values.reduce(0) { $0 + $1.count }
            + procedures.values.reduce(0) { $0 + $1.count }
    }

    func route(_ event: SessionEvent) {
        switch event {
        case .message(let message):
            for receiver in receivers[message.event] ?? [] { receiver.handler(message.data) }
        case .publication(let publication):
            for consumer in channels[publication.channel] ?? [] { consumer.handler(publication.data) }
        default:
            break
        }
        for listener in eventListeners { listener.handler(event) }
    }

    /// Hands a server request to its procedure; false when there is none.
    func handleRequest(_ event: String, _ data: JSONValue?, _ id: ServerRequestID) -> Bool {
        guard let first = procedures[event]?.first else { return false }
        first.handler(event, data, id)
        return true
    }
}
