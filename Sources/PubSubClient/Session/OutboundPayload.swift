/// The `data` of a transmit or invoke the session sends. A publication keeps its channel and
/// data apart: the JSON codec writes its `{"channel":…,"data":…}` straight into the packet, with
/// no dictionary built and sorted for it; other codecs get the object `value` makes.
enum OutboundPayload: Sendable, Equatable {
    /// Any value, or none (the packet has no `data` member then).
    case value(JSONValue?)
    /// `#publish`'s data: the channel (prefix included) and the published value, if any.
    case publication(channel: String, data: JSONValue?)

    /// The packet's `data` as a value.
    var value: JSONValue? {
        switch self {
        case .value(let value):
            return value
        case .publication(let channel, let data):
            var members: [String: JSONValue] = ["channel": .string(channel)]
            if let data { members["data"] = data }
            return .object(members)
        }
    }
}
