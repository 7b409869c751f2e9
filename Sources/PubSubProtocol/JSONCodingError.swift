/// A `Codable` value could not be converted to or from `JSONValue`.
public struct JSONCodingError: Error, Sendable, CustomStringConvertible {
    /// What failed, including the underlying encoder/decoder message.
    public let description: String
}
