/// The few places the session touches PubSubProtocol's packet model, gathered in one file.
enum WireCodec {
    static func classify(_ text: String) -> InboundFrame {
        InboundFrame(text: text)
    }

    static func serialize(_ packet: Packet) -> String {
        packet.serialized()
    }

    static func hydrate(_ value: JSONValue) -> RemoteError {
        RemoteError(hydrating: value)
    }

    static func remoteError(name: String, message: String) -> RemoteError {
        RemoteError(name: name, message: message)
    }
}
