/// A client's `#publish` invoke read without building a tree for what it publishes: the frame is
/// validated as strictly as `JSONValue(parsing:)` does, the channel and `cid` are read, and the
/// publication subscribers receive is spliced from the data's bytes as they arrived. Routing a
/// publication of any shape then costs a linear pass over it and one copy, however many values
/// it holds.
package struct InboundPublish: Sendable {
    /// The channel name.
    package var channel: String
    /// The invoke's `cid` (0 when `callIDText` is set).
    package var cid: Int64
    /// The `cid`'s wire text when it is not the canonical decimal `cid` (see
    /// `InboundPacket.callIDText`).
    package var callIDText: String?
    /// The frame subscribers receive, `{"event":"#publish","data":{"channel":C,"data":D}}` (no
    /// `"data":D` when the client sent none): the channel written as the serializer writes strings,
    /// `D` the client's data bytes unchanged (so its object keys keep the client's order, as
    /// socketcluster-server's `JSON.stringify` of the parsed value keeps them).
    package var publication: [UInt8]

    /// The `#publish` invoke in a frame (UTF-8; `isValidUTF8` skips validation for bytes from a
    /// `String`), or `nil` when the frame is anything else: not one object, not valid JSON, no
    /// numeric `cid`, or `data` not an object with a string `channel`. A `nil` frame is for the
    /// general path (`InboundPacket.parseFrame`), which then classifies it as before.
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool) -> InboundPublish? {
        var parser = JSONParser(
            input: bytes, maximumDepth: JSONValue.defaultMaximumDepth, maximumValues: .max, inputIsValidUTF8: isValidUTF8,
            capturesCallIDs: false)
        do throws(JSONParseError) {
            return try parser.scanPublish()
        } catch {
            return nil
        }
    }

    /// `scan` over a `String`'s UTF-8.
    package static func scan(_ text: String) -> InboundPublish? {
        var text = text
        return text.withUTF8 { scan($0, isValidUTF8: true) }
    }
}

extension JSONParser {
    /// The members of a packet object that a `#publish` invoke needs; `nil` when the document is
    /// valid JSON of another shape; throws when it is not valid JSON.
    fileprivate mutating func scanPublish() throws(JSONParseError) -> InboundPublish? {
        skipWhitespace()
        guard position < input.count, input[position] == UInt8(ascii: "{") else { return nil }
        var event: String?
        var cid: (value: JSONValue, text: Range<Int>)?
        var payload: (channel: String?, data: Range<Int>?)?
        position += 1
        skipWhitespace()
        guard position < input.count, input[position] != UInt8(ascii: "}") else { return nil }
        while true {
            guard position < input.count, input[position] == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedEndOfInput, offset: position)
            }
            let key = try scanPacketKey()
            try expectColon()
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            let valueStart = position
            let first = input[position]
            switch key {
            case .event where first == UInt8(ascii: "\""):
                // Another event: the general path reads it (and would read a repeated `event`).
                // Told from the bytes when the name has no escape, so the frames of every other
                // event (each invoke's) cost no string.
                guard try readsPublishEventName() else { return nil }
                event = BuiltInEvent.publish
            case .cid where first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")):
                let value = try parseNumber()
                cid = (value, valueStart..<position)
            case .data where first == UInt8(ascii: "{"):
                payload = try scanPublishPayload()
            default:
                // A repeated key keeps the last value, as JSON.parse does.
                if key == .event { event = nil }
                if key == .cid { cid = nil }
                if key == .data { payload = nil }
                try skipValue(depth: 1)
            }
            if try skipSeparator(close: UInt8(ascii: "}")) { break }
        }
        skipWhitespace()
        guard position == input.count else { throw JSONParseError(.trailingCharacters, offset: position) }
        guard event == BuiltInEvent.publish, let cid, let payload, let channel = payload.channel else { return nil }
        let cidText = String(decoding: UnsafeBufferPointer(rebasing: input[cid.text]), as: UTF8.self)
        let integer: Int64?
        if case .int(let value) = cid.value, String(value) == cidText { integer = value } else { integer = nil }

        var serializer = JSONSerializer(capacity: 48 + channel.utf8.count + (payload.data?.count ?? 0))
        let head = ##"{"event":"#publish","data":{"channel":"##
        for byte in head.utf8 { serializer.appendRaw(byte) }
        serializer.writeString(channel)
        var publication = serializer.bytes
        if let data = payload.data {
            publication.append(contentsOf: #","data":"#.utf8)
            publication.append(contentsOf: UnsafeBufferPointer(rebasing: input[data]))
        }
        publication.append(contentsOf: "}}".utf8)
        return InboundPublish(channel: channel, cid: integer ?? 0, callIDText: integer == nil ? cidText : nil, publication: publication)
    }

    /// The `data` object of a `#publish`: its string `channel` and the extent of its `data`.
    private mutating func scanPublishPayload() throws(JSONParseError) -> (channel: String?, data: Range<Int>?) {
        var channel: String?
        var data: Range<Int>?
        position += 1
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        if input[position] == UInt8(ascii: "}") {
            position += 1
            return (nil, nil)
        }
        while true {
            guard position < input.count, input[position] == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedEndOfInput, offset: position)
            }
            let key = try parseString()
            try expectColon()
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            let valueStart = position
            if key == "channel" && input[position] == UInt8(ascii: "\"") {
                channel = try parseString()
            } else {
                if key == "channel" { channel = nil }
                try skipValue(depth: 2)
                if key == "data" { data = valueStart..<position }
            }
            if try skipSeparator(close: UInt8(ascii: "}")) { return (channel, data) }
        }
    }

    /// Reads the string value at `position` and tells whether it is `#publish`. A name without
    /// escapes is compared as bytes, with no string made (when it is another, the general path
    /// validates it); one with escapes is parsed.
    fileprivate mutating func readsPublishEventName() throws(JSONParseError) -> Bool {
        let start = position + 1
        var end = start
        while end < input.count, input[end] != UInt8(ascii: "\""), input[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: end) }
        if input[end] == UInt8(ascii: "\\") { return try parseString() == BuiltInEvent.publish }
        guard UnsafeBufferPointer(rebasing: input[start..<end]).elementsEqual(Self.publishEventName) else { return false }
        position = end + 1
        return true
    }

    /// `#publish` as UTF-8.
    private static let publishEventName = Array(BuiltInEvent.publish.utf8)

    /// The members of a packet object that `scanPublish` reads.
    fileprivate enum PacketKey {
        case event, cid, data, other
    }

    /// Reads the object key at `position`. `"event"`, `"cid"` and `"data"` written without
    /// escapes are told from their bytes, with no string made; any other key is parsed.
    fileprivate mutating func scanPacketKey() throws(JSONParseError) -> PacketKey {
        if readsLiteral(#""event""#) { return .event }
        if readsLiteral(#""data""#) { return .data }
        if readsLiteral(#""cid""#) { return .cid }
        switch try parseString() {
        case "event": return .event
        case "cid": return .cid
        case "data": return .data
        default: return .other
        }
    }

    /// Moves past `literal` when the input continues with exactly its bytes.
    private mutating func readsLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= input.count else { return false }
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where input[position + offset] != bytes[offset] { return false }
        position += count
        return true
    }
}
