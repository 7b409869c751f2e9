/// An error as it travels in a response or `authError` (sc-errors dehydration, spec §4.4):
/// `message` first, then `name`, then the extra fields (sorted by key), or any JSON value for
/// errors that are not objects.
struct BrokerErrorPayload: Error, Sendable, Equatable {
    var name: String
    var message: String
    /// Extra properties such as `isBadToken`, `expiry`, `statusCode`, `type`.
    var fields: [(String, JSONValue)]
    /// Set when the error is not an object (a bare string, number…): sent as is.
    var rawValue: JSONValue?

    init(name: String, message: String, fields: [(String, JSONValue)] = []) {
        self.name = name
        self.message = message
        self.fields = fields
        self.rawValue = nil
    }

    init(raw: JSONValue) {
        name = "Error"
        message = ""
        fields = []
        rawValue = raw
    }

    static func == (lhs: BrokerErrorPayload, rhs: BrokerErrorPayload) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    func serialized() -> String {
        if let rawValue { return rawValue.serialized() }
        var text = "{\"message\":\(JSONValue.string(message).serialized()),\"name\":\(JSONValue.string(name).serialized())"
        for (key, value) in fields where key != "message" && key != "name" {
            text += ",\(JSONValue.string(key).serialized()):\(value.serialized())"
        }
        return text + "}"
    }

    /// `InvalidActionError` with `message` (malformed reserved events, disabled client publish).
    static func invalidAction(_ message: String) -> BrokerErrorPayload {
        BrokerErrorPayload(name: "InvalidActionError", message: message)
    }

    /// `BrokerError` with `message` (subscribe/unsubscribe failures).
    static func broker(_ message: String) -> BrokerErrorPayload {
        BrokerErrorPayload(name: "BrokerError", message: message)
    }
}
