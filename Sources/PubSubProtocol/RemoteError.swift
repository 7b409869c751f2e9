import PeerText

/// An error the peer sent in a response's `error` field, hydrated as sc-errors does (Protocol.md §6).
///
/// Object payloads give `name` (default `"Error"` — a plain JS `Error` has no own `name`),
/// `message` (or `"Invalid error message format"` when not a string) and every other property in
/// `fields`. Non-object payloads (a string, a number...) are kept in `nonObjectPayload`.
public struct RemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error class name, e.g. `"AuthTokenExpiredError"`; `"Error"` when the peer sent none.
    public var name: String
    /// The human-readable message.
    public var message: String
    /// Every other property the peer sent (`code`, `statusCode`, `isBadToken`, `expiry`...).
    public var fields: [String: JSONValue]
    /// The error exactly as received when it was not a JSON object; nil for object errors.
    public var nonObjectPayload: JSONValue?

    /// The message used when an error object's `message` is missing or not a string.
    public static let invalidMessageFormat = "Invalid error message format"

    /// An error to send to the peer.
    public init(name: String = "Error", message: String, fields: [String: JSONValue] = [:]) {
        self.name = name
        self.message = message
        self.fields = fields
        self.nonObjectPayload = nil
    }

    /// Hydrates a received `error` payload.
    public init(hydrating payload: JSONValue) {
        guard case .object(var members) = payload else {
            name = "Error"
            switch payload {
            case .string(let text): message = text
            default: message = payload.serialized()
            }
            fields = [:]
            nonObjectPayload = payload
            return
        }
        if case .string(let text)? = members["message"] {
            message = text
        } else {
            message = RemoteError.invalidMessageFormat
        }
        members["message"] = nil
        if case .string(let text)? = members["name"] {
            name = text
            members["name"] = nil
        } else {
            name = "Error"
        }
        fields = members
        nonObjectPayload = nil
    }

    /// The value of a custom property, e.g. `error["statusCode"]`.
    public subscript(field: String) -> JSONValue? {
        fields[field]
    }

    /// The wire form (`{"message":...,"name":...,...fields}`, or the non-object payload as is).
    public func dehydrated() -> JSONValue {
        if let nonObjectPayload { return nonObjectPayload }
        var members = fields
        members["message"] = .string(message)
        members["name"] = .string(name)
        return .object(members)
    }

    /// `"<name>: <message>"`, the form the JS client uses as a close reason, for a person: the
    /// peer's name and message with their control, bidi and invisible characters escaped as
    /// `\u{1B}` (WireKit's `escapedForDisplay`). ``name`` and ``message`` keep them as received.
    public var description: String { "\(PeerTextEscaping.escape(name)): \(PeerTextEscaping.escape(message))" }
}
