/// What the session core asks its driver to do. Drained with `ClientSession.nextAction()` until nil
/// after every input, and executed in order.
package enum SessionAction: Sendable, Equatable {
    /// Open a WebSocket to `url` with these extra request headers; report its events with `id`.
    case openTransport(id: TransportID, url: String, headers: [String: String])
    /// Send one text frame on the current transport: its UTF-8, as the serializer made it.
    case sendText([UInt8])
    /// Send one binary frame on the current transport: a binary codec's packet or batch
    /// (`SessionConfiguration.codec`).
    case sendBinary([UInt8])
    /// Close the current transport with this close frame. The session already treats the
    /// connection as closed; later events from this transport are ignored.
    case closeTransport(id: TransportID, code: UInt16, reason: String)
    /// Complete a call made with `invoke`/`publish(ack)`/`subscribe(ack)`/`authenticate`.
    case complete(CallID, Result<JSONValue?, PubSubError>)
    /// Complete a call made with `connect`: with the handshake, or with why the attempt ended
    /// before it (`transport` when the WebSocket failed, else `connectionFailed`).
    case completeConnect(CallID, Result<HandshakeInfo, PubSubError>)
    /// Persist the auth token under `name` (Protocol.md §9).
    case saveToken(name: String, token: String)
    /// Delete the auth token stored under `name`.
    case removeToken(name: String)
    /// Tell the application something.
    case event(SessionEvent)
}
