/// One SocketCluster packet: an element of a frame (Protocol.md §2).
///
/// This set is closed: SocketCluster's protocol has these three kinds of packet, and anything
/// else is `raw`. The type is public for ``PacketCodec`` writers; how frames are classified and
/// serialized is internal to this package.
public enum Packet: Sendable, Hashable {
    /// A one-way event: `{"event":..., "data"?:...}`. `data` is nil when the key is absent.
    case transmit(event: String, data: JSONValue?)
    /// An RPC request expecting exactly one response with `rid == cid`.
    case invoke(event: String, data: JSONValue?, cid: Int64)
    /// The answer to an invoke. A non-null `error` wins over `data`; `data` is nil when absent.
    case response(rid: Int64, result: Result<JSONValue?, RemoteError>)
    /// An element that is none of the above (not an object, no string `event`, no numeric `rid`,
    /// or a `cid`/`rid` that is a number but not an integer).
    case raw(JSONValue)

    /// Classifies one decoded element with the v18.1+ rules: a string `event` with a numeric
    /// `cid` is an invoke, a string `event` otherwise a transmit, else a numeric `rid` is a response.
    public init(classifying value: JSONValue) {
        guard case .object(let members) = value, let packet = Packet.classify(member: { members.packetMember($0) }) else {
            self = .raw(value)
            return
        }
        self = packet
    }

    /// The v18.1+ rules over an object's members, `member` returning the value of a key (the
    /// last one when repeated, as `JSON.parse` keeps); nil when the object is `raw`. One place
    /// for the rules: `init(classifying:)` asks a dictionary, the frame parser the members it has
    /// just read, before any dictionary is made of them.
    @inline(__always)
    static func classify(member: (String) -> JSONValue?) -> Packet? {
        if case .string(let event)? = member("event") {
            guard let cid = member("cid"), cid.isNumber else {
                return .transmit(event: event, data: member("data"))
            }
            guard let cidInteger = cid.intValue else { return nil }
            return .invoke(event: event, data: member("data"), cid: cidInteger)
        }
        if let rid = member("rid"), rid.isNumber {
            guard let ridInteger = rid.intValue else { return nil }
            if let error = member("error"), !error.isNull {
                return .response(rid: ridInteger, result: .failure(RemoteError(hydrating: error)))
            }
            return .response(rid: ridInteger, result: .success(member("data")))
        }
        return nil
    }
}

extension [String: JSONValue] {
    /// The member `key` of a packet object. A packet has two or three members, so comparing
    /// the keys is cheaper than hashing `key` (a lookup per member the classification asks for,
    /// four or five per packet); a larger object is looked up by hash.
    @inline(__always)
    package func packetMember(_ key: String) -> JSONValue? {
        guard count <= 4 else { return self[key] }
        for member in self where member.key == key { return member.value }
        return nil
    }
}
