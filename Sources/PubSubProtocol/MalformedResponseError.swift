import PeerText

/// A response from the peer did not have the shape the protocol requires.
public struct MalformedResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with it.
    public let message: String

    /// An error saying `message`.
    public init(message: String) { self.message = message }

    /// The message, its control, bidi and invisible characters escaped as `\u{1B}` (it can quote
    /// the peer's answer).
    public var description: String { PeerTextEscaping.escape(message) }
}
