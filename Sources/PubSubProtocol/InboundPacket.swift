/// One packet of a received frame, with the wire text of its `cid` when that text is not the
/// canonical decimal form of a 64-bit integer, so the answer can carry the very number the peer
/// sent (socketcluster-server answers `rid` with whatever number `cid` held).
public struct InboundPacket: Sendable, Hashable {
    /// The packet, classified as `Packet(classifying:)` does. An element whose `cid` is a number
    /// but not an `Int64` (`1.5`, `1e30`, `9223372036854775808`) is `.raw`; `callIDText` then
    /// says it is an invoke all the same.
    public var packet: Packet
    /// The `cid` member's JSON number text exactly as received, when the element has a string
    /// `event` and a numeric `cid` written other than as the decimal integer `packet` holds
    /// (`1e3`, `-0`, `1.5`, `-9223372036854775809`); `nil` otherwise.
    public var callIDText: String?

    /// A packet and the wire text of its `cid`.
    public init(packet: Packet, callIDText: String? = nil) {
        self.packet = packet
        self.callIDText = callIDText
    }

    /// The event and data of an invoke whose `cid` is not an exact `Int64` (`packet` is `.raw`):
    /// answer it with `Packet.serializedResponse(ridText:result:keyOrder:)`.
    package var invokeWithCallIDText: (event: String, data: JSONValue?, callIDText: String)? {
        guard let callIDText, case .raw(let value) = packet, let event = value["event"]?.stringValue else { return nil }
        return (event, value["data"], callIDText)
    }

    /// The packets of one received frame (UTF-8; `isValidUTF8` skips validation for bytes that
    /// came from a Swift `String`), or `nil` when the frame holds none: a ping or pong, text that
    /// is not JSON or does not start with `{`/`[`, or a lone object that is not a packet (what
    /// `InboundFrame` calls `.ping`, `.pong` and `.raw`).
    ///
    /// Throws `JSONParseError` with reason `tooManyValues` when the frame's JSON holds more than
    /// `maximumValues` values (every scalar, array, object and object key counts one): parsing
    /// stops there, so a hostile frame costs at most that many values of memory.
    package static func parseFrame(
        _ bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool, maximumValues: Int = .max
    ) throws(JSONParseError) -> [InboundPacket]? {
        guard InboundFrame.startsLikeJSONPackets(bytes) else { return nil }
        let parsed = JSONParser.parsePacketFrame(
            bytes, maximumDepth: JSONValue.defaultMaximumDepth, maximumValues: maximumValues,
            inputIsValidUTF8: isValidUTF8)
        let frame: JSONParser.PacketFrame
        switch parsed {
        case .success(let result):
            frame = result
        case .failure(let error):
            if case .tooManyValues = error.reason { throw error }
            return nil
        }
        func inbound(_ element: JSONValue, index: Int) -> InboundPacket {
            // Most packets were classified while they were read.
            if let packet = frame.packet(at: index) { return InboundPacket(packet: packet) }
            let packet = Packet(classifying: element)
            // Most frames have no cid text kept: no lookup then.
            guard !frame.callIDTexts.isEmpty, let text = frame.callIDTexts[index], element["event"]?.stringValue != nil else {
                return InboundPacket(packet: packet)
            }
            return InboundPacket(packet: packet, callIDText: text)
        }
        if case .array(let elements) = frame.value {
            return elements.enumerated().map { inbound($1, index: $0) }
        }
        let packet = inbound(frame.value, index: 0)
        if case .raw = packet.packet, packet.callIDText == nil { return nil }
        return [packet]
    }

    /// `parseFrame` over a `String`'s UTF-8.
    package static func parseFrame(_ text: String, maximumValues: Int = .max) throws(JSONParseError) -> [InboundPacket]? {
        var text = text
        let result = text.withUTF8 { bytes -> Result<[InboundPacket]?, JSONParseError> in
            do throws(JSONParseError) {
                return .success(try parseFrame(bytes, isValidUTF8: true, maximumValues: maximumValues))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
