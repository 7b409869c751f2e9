/// One element of an inbound message, as the server classifies it (Protocol.md §2, v18.1+ rules).
enum InboundItem: Sendable {
    /// `event` is a string; `cid` is set only when it is a number (else the packet is a transmit).
    case event(String, data: JSONValue?, cid: BrokerCallID?)
    /// `rid` is a number; an `error` that is present and not `null` wins over `data`.
    case response(rid: Int64, result: Result<JSONValue?, RemoteError>)
    /// Anything else (not an object, or an object with neither).
    case raw

    /// Classifies a text frame that is not the pong: `nil` when it is not JSON (a raw string),
    /// else its packets (one, or each element of a batch array). Fails with `tooManyValues` when
    /// the frame's JSON holds more than `maximumValues` values.
    static func classify(_ text: String, maximumValues: Int) -> Result<[InboundItem]?, JSONParseError> {
        do throws(JSONParseError) {
            return .success(try InboundPacket.parseFrame(text, maximumValues: maximumValues)?.map(InboundItem.init))
        } catch {
            return .failure(error)
        }
    }

    /// Classifies a binary frame, decoded as UTF-8: JSON packets or `nil` (never a ping or pong).
    static func classify(utf8 bytes: [UInt8], maximumValues: Int) -> Result<[InboundItem]?, JSONParseError> {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(
                    try InboundPacket.parseFrame(buffer, isValidUTF8: false, maximumValues: maximumValues)?.map(InboundItem.init))
            } catch {
                return .failure(error)
            }
        }
    }

    init(_ inbound: InboundPacket) {
        if let invoke = inbound.invokeWithCallIDText {
            self = .event(invoke.event, data: invoke.data, cid: BrokerCallID(text: invoke.callIDText))
            return
        }
        switch inbound.packet {
        case .transmit(let event, let data):
            self = .event(event, data: data, cid: nil)
        case .invoke(let event, let data, let cid):
            self = .event(event, data: data, cid: inbound.callIDText.map(BrokerCallID.init(text:)) ?? BrokerCallID(cid))
        case .response(let rid, let result):
            self = .response(rid: rid, result: result)
        case .raw:
            self = .raw
        }
    }
}
