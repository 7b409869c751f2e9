/// One element of an inbound message, as the server classifies it (Protocol.md §2, v18.1+ rules).
enum InboundItem: Sendable {
    /// `event` is a string; `cid` is set only when it is a number (else the packet is a transmit).
    case event(String, data: JSONValue?, cid: BrokerCallID?)
    /// `rid` is a number; an `error` that is present and not `null` wins over `data`.
    case response(rid: Int64, result: Result<JSONValue?, RemoteError>)
    /// Anything else (not an object, or an object with neither).
    case raw

    /// Classifies a message that is not the pong with `codec`: `nil` when it holds no packets (a
    /// raw message), else its packets (one, or each element of a batch). Fails with
    /// `tooManyValues` when the message holds more than `maximumValues` values.
    static func classify(
        _ bytes: UnsafeBufferPointer<UInt8>, kind: PacketMessageKind, codec: any PacketCodec, maximumValues: Int
    ) -> Result<[InboundItem]?, PacketDecodingError> {
        do throws(PacketDecodingError) {
            return .success(try codec.decode(bytes, kind: kind, maximumValues: maximumValues)?.map(InboundItem.init))
        } catch {
            return .failure(error)
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
