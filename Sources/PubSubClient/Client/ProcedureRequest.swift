/// One invoke from the server, answered exactly once with `respond` or `fail`. A request
/// dropped without an answer is answered with an `UnhandledRequestError`, so the server never
/// waits for a reply that will not come.
public final class ProcedureRequest: Sendable {
    /// The procedure name.
    public let event: String
    /// The request data (nil when the packet had none).
    public let data: JSONValue?
    /// Identifies the request on its connection.
    public let id: ServerRequestID
    private let driver: SessionDriver

    init(event: String, data: JSONValue?, id: ServerRequestID, driver: SessionDriver) {
        self.event = event
        self.data = data
        self.id = id
        self.driver = driver
    }

    deinit {
        let id = self.id
        let event = self.event
        driver.queue.async { [driver] in
            driver.run { session, now in
                guard session.isAwaitingResponse(id) else { return }
                let error = RemoteError(name: "UnhandledRequestError", message: "The client dropped the \(event) request without answering")
                try? session.respond(to: id, with: .failure(error), now: now)
            }
        }
    }

    /// Answers with `data` (`{"rid":N,"data":...}`, no `data` key when nil).
    public func respond(_ data: JSONValue? = nil) throws(PubSubError) {
        try driver.withSession { (session: inout ClientSession, now: MonotonicInstant) throws(PubSubError) in
            try session.respond(to: id, with: .success(data), now: now)
        }
    }

    /// Answers with an `Encodable` value.
    public func respond(encoding value: some Encodable) throws(PubSubError) {
        let json: JSONValue
        do { json = try JSONValue(encoding: value) } catch { throw .coding("\(error)") }
        try respond(json)
    }

    /// Answers with an error (`{"rid":N,"error":{"message","name",...}}`).
    public func fail(_ error: RemoteError) throws(PubSubError) {
        try driver.withSession { (session: inout ClientSession, now: MonotonicInstant) throws(PubSubError) in
            try session.respond(to: id, with: .failure(error), now: now)
        }
    }

    /// Decodes the request data as `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws(PubSubError) -> T {
        do { return try (data ?? .null).decode(type) } catch { throw .coding("\(error)") }
    }
}
