/// A `Codable` value could not be converted to or from `JSONValue`.
public struct JSONCodingError: Error, Sendable, CustomStringConvertible {
    /// What failed, including the underlying encoder/decoder message (a decoding error's, which
    /// quotes the JSON's keys, with control and bidi characters escaped as `\u{1B}`).
    public let description: String
}
