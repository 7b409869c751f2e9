/// A response from the peer did not have the shape the protocol requires.
public struct MalformedResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with it.
    public let message: String

    /// An error saying `message`.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
