import Foundation

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

    /// The JWT payload, decoded without verification (spec §7.1).
    static func decodeTokenPayload(_ token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        if let value = try? JSONValue(parsing: data) { return value }
        return .string(String(decoding: data, as: UTF8.self))
    }

    static func remoteError(name: String, message: String) -> RemoteError {
        RemoteError(name: name, message: message)
    }
}
