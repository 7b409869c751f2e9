/// What one received text frame is (Protocol.md §2, §3), from the receiver's point of view.
package enum InboundFrame: Sendable, Hashable {
    /// A ping: `#1` (protocol 1) or the empty frame (protocol 2). Note that in protocol 2 the
    /// client's pong is also the empty frame, so a server reads `.ping(.v2)` as a pong.
    case ping(SocketClusterProtocolVersion)
    /// `#2`, the protocol-1 pong.
    case pong
    /// A single packet object or a batch array, each element classified in order.
    case packets([Packet])
    /// Anything else: not JSON, JSON that does not start with `{`/`[`, or a lone object that is
    /// not a packet. Carries the frame text unchanged.
    case raw(String)

    /// Classifies a text frame.
    package init(text: String) {
        var contiguous = text
        self = contiguous.withUTF8 { InboundFrame.classify($0, text: text, isValidUTF8: true) }
    }

    /// Classifies a frame given as UTF-8 bytes (e.g. a binary frame, which servers decode as
    /// UTF-8 text). Invalid UTF-8 gives `.raw` with U+FFFD replacements.
    package init(utf8 bytes: some Collection<UInt8>) {
        let result =
            bytes.withContiguousStorageIfAvailable {
                InboundFrame.classify($0, text: nil, isValidUTF8: false)
            }
            ?? Array(bytes).withUnsafeBufferPointer {
                InboundFrame.classify($0, text: nil, isValidUTF8: false)
            }
        self = result
    }

    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>, text: String?, isValidUTF8: Bool) -> InboundFrame {
        func rawText() -> InboundFrame {
            .raw(text ?? String(decoding: bytes, as: UTF8.self))
        }
        if bytes.isEmpty { return .ping(.v2) }
        if bytes.count == 2 && bytes[0] == UInt8(ascii: "#") {
            if bytes[1] == UInt8(ascii: "1") { return .ping(.v1) }
            if bytes[1] == UInt8(ascii: "2") { return .pong }
        }
        guard startsLikeJSONPackets(bytes) else { return rawText() }
        guard
            case .success(let value) = JSONParser.parse(
                bytes, maximumDepth: JSONValue.defaultMaximumDepth,
                inputIsValidUTF8: isValidUTF8)
        else {
            return rawText()
        }
        switch value {
        case .array(let elements):
            return .packets(elements.map { Packet(classifying: $0) })
        default:
            let packet = Packet(classifying: value)
            if case .raw = packet { return rawText() }
            return .packets([packet])
        }
    }

    /// Whether the frame can hold packets: not a ping or pong, and its first non-whitespace byte
    /// is `{` or `[`.
    static func startsLikeJSONPackets(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.isEmpty { return false }
        if bytes.count == 2 && bytes[0] == UInt8(ascii: "#") && (bytes[1] == UInt8(ascii: "1") || bytes[1] == UInt8(ascii: "2")) {
            return false
        }
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index < bytes.count && (bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["))
    }
}
