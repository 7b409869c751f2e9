extension Packet {
    /// The packet as one JSON frame text, members in JavaScript order (`event, data, cid` /
    /// `rid, data` / `rid, error`; nested objects with sorted keys, error objects `message, name` first).
    package func serialized(keyOrder: PacketKeyOrder = .client) -> String {
        String(decoding: serializedBytes(keyOrder: keyOrder), as: UTF8.self)
    }

    /// The packet as UTF-8 JSON bytes (see `serialized(keyOrder:)`).
    package func serializedBytes(keyOrder: PacketKeyOrder = .client) -> [UInt8] {
        var serializer = JSONSerializer(capacity: 128)
        write(to: &serializer, keyOrder: keyOrder)
        return serializer.bytes
    }

    /// The JSON value of this packet (object key order is not kept by `JSONValue`).
    public var jsonValue: JSONValue {
        switch self {
        case .transmit(let event, let data):
            var members: [String: JSONValue] = ["event": .string(event)]
            members["data"] = data
            return .object(members)
        case .invoke(let event, let data, let cid):
            var members: [String: JSONValue] = ["event": .string(event), "cid": .int(cid)]
            members["data"] = data
            return .object(members)
        case .response(let rid, .success(let data)):
            var members: [String: JSONValue] = ["rid": .int(rid)]
            members["data"] = data
            return .object(members)
        case .response(let rid, .failure(let error)):
            return .object(["rid": .int(rid), "error": error.dehydrated()])
        case .raw(let value):
            return value
        }
    }

    func write(to serializer: inout JSONSerializer, keyOrder: PacketKeyOrder) {
        var first = true
        switch self {
        case .transmit(let event, let data):
            serializer.appendRaw(UInt8(ascii: "{"))
            serializer.writeMember("event", .string(event), first: &first)
            if let data { serializer.writeMember("data", data, first: &first) }
            serializer.appendRaw(UInt8(ascii: "}"))
        case .invoke(let event, let data, let cid):
            serializer.appendRaw(UInt8(ascii: "{"))
            serializer.writeMember("event", .string(event), first: &first)
            switch keyOrder {
            case .client:
                if let data { serializer.writeMember("data", data, first: &first) }
                serializer.writeMember("cid", .int(cid), first: &first)
            case .server:
                serializer.writeMember("cid", .int(cid), first: &first)
                if let data { serializer.writeMember("data", data, first: &first) }
            }
            serializer.appendRaw(UInt8(ascii: "}"))
        case .response(let rid, let result):
            serializer.appendRaw(UInt8(ascii: "{"))
            serializer.writeMember("rid", .int(rid), first: &first)
            switch result {
            case .success(let data):
                if let data { serializer.writeMember("data", data, first: &first) }
            case .failure(let error):
                serializer.writeErrorMember("error", error, first: &first)
            }
            serializer.appendRaw(UInt8(ascii: "}"))
        case .raw(let value):
            serializer.write(value)
        }
    }
}

extension Packet {
    /// A client's `#publish` in the client's member order: the invoke
    /// `{"event":"#publish","data":{"channel":C,"data":D},"cid":N}`, or the transmit without
    /// `"cid"` when `cid` is nil; no inner `"data"` when `data` is nil. Byte for byte what the
    /// packet with the object `{"channel":C,"data":D}` as its data serializes to, written without
    /// building (and sorting) that object.
    package static func serializedPublication(channel: String, data: JSONValue?, cid: Int64?) -> [UInt8] {
        var serializer = JSONSerializer(capacity: 128)
        serializer.appendLiteral(##"{"event":"#publish","data":{"channel":"##)
        serializer.writeString(channel)
        var first = false
        if let data { serializer.writeMember("data", data, first: &first) }
        serializer.appendRaw(UInt8(ascii: "}"))
        if let cid { serializer.writeMember("cid", .int(cid), first: &first) }
        serializer.appendRaw(UInt8(ascii: "}"))
        return serializer.bytes
    }
}

extension Packet {
    /// The response `{"rid":<ridText>,…}` to an invoke whose `cid` arrived as `ridText` (see
    /// `InboundPacket.callIDText`): the number goes back exactly as the peer wrote it. `ridText`
    /// must be a JSON number as `InboundPacket` captured it; it is written unchanged.
    package static func serializedResponse(
        ridText: String, result: Result<JSONValue?, RemoteError>, keyOrder: PacketKeyOrder = .client
    ) -> [UInt8] {
        let canonical = Packet.response(rid: 0, result: result).serializedBytes(keyOrder: keyOrder)
        return replacingResponseRID(of: canonical, with: ridText)
    }

    /// A response frame that starts `{"rid":0` with the `0` replaced by `ridText`; any other
    /// frame is returned unchanged.
    package static func replacingResponseRID(of frame: [UInt8], with ridText: String) -> [UInt8] {
        let prefix = Array(#"{"rid":0"#.utf8)
        guard frame.starts(with: prefix) else { return frame }
        var spliced = Array(prefix.dropLast())
        spliced.reserveCapacity(frame.count + ridText.utf8.count)
        spliced.append(contentsOf: ridText.utf8)
        spliced.append(contentsOf: frame[prefix.count...])
        return spliced
    }
}

extension JSONSerializer {
    /// `"key":error`, the error dehydrated with `message` and `name` first and the other fields
    /// sorted, as sc-errors' dehydration writes them.
    mutating func writeErrorMember(_ key: String, _ error: RemoteError, first: inout Bool) {
        if !first { appendRaw(UInt8(ascii: ",")) }
        first = false
        writeString(key)
        appendRaw(UInt8(ascii: ":"))
        let payload = error.dehydrated()
        if case .object(let members) = payload {
            writeObject(members, leadingKeys: ["message", "name"])
        } else {
            write(payload)
        }
    }
}

extension JSONSerializer {
    /// `{"rid":N,"data":{…}}` whose data members `writeMembers` writes in a fixed order (the
    /// order socketcluster-server writes its handshake and authenticate answers in).
    static func responseText(rid: Int64, writeMembers: (inout JSONSerializer, inout Bool) -> Void) -> String {
        var serializer = JSONSerializer(capacity: 128)
        var first = true
        serializer.appendRaw(UInt8(ascii: "{"))
        serializer.writeMember("rid", .int(rid), first: &first)
        serializer.appendRaw(UInt8(ascii: ","))
        serializer.writeString("data")
        serializer.appendRaw(UInt8(ascii: ":"))
        var firstMember = true
        serializer.appendRaw(UInt8(ascii: "{"))
        writeMembers(&serializer, &firstMember)
        serializer.appendRaw(UInt8(ascii: "}"))
        serializer.appendRaw(UInt8(ascii: "}"))
        return String(decoding: serializer.bytes, as: UTF8.self)
    }
}

extension Packet {
    /// Serialized packets (UTF-8) joined into one batch frame (a JSON array), for senders that
    /// keep packets serialized while batching.
    package static func batchFrame(_ serializedPackets: [[UInt8]]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(serializedPackets.reduce(2) { $0 + $1.count + 1 })
        frame.append(UInt8(ascii: "["))
        for (index, packet) in serializedPackets.enumerated() {
            if index > 0 { frame.append(UInt8(ascii: ",")) }
            frame.append(contentsOf: packet)
        }
        frame.append(UInt8(ascii: "]"))
        return frame
    }
}

extension Array where Element == Packet {
    /// The packets as one batch frame: a JSON array (Protocol.md §2).
    package func serialized(keyOrder: PacketKeyOrder = .client) -> String {
        String(decoding: serializedBytes(keyOrder: keyOrder), as: UTF8.self)
    }

    /// The packets as one batch frame in UTF-8 bytes.
    package func serializedBytes(keyOrder: PacketKeyOrder = .client) -> [UInt8] {
        var serializer = JSONSerializer(capacity: 128 * Swift.max(count, 1))
        serializer.appendRaw(UInt8(ascii: "["))
        for (index, packet) in enumerated() {
            if index > 0 { serializer.appendRaw(UInt8(ascii: ",")) }
            packet.write(to: &serializer, keyOrder: keyOrder)
        }
        serializer.appendRaw(UInt8(ascii: "]"))
        return serializer.bytes
    }
}
