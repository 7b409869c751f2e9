/// Why a received message could not be read into packets at all. A message that is simply not
/// a packet (not JSON, not MessagePack, a lone value) is not an error: ``PacketCodec/decode(_:kind:maximumValues:)``
/// returns `nil` for it, and receivers treat it as a raw message.
public struct PacketDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The message holds more values than the receiver allows (`maximumValues`): reading
        /// stopped there. Receivers close with 1009.
        case tooManyValues(limit: Int)
        /// Another limit of the codec's own (nesting, input size) was reached.
        case limitExceeded(String)
    }

    /// What went wrong.
    public let reason: Reason

    /// An error for `reason`.
    public init(_ reason: Reason) { self.reason = reason }

    /// A sentence for logs.
    public var description: String {
        switch reason {
        case .tooManyValues(let limit): return "Message has more than \(limit) values"
        case .limitExceeded(let detail): return "Message exceeds a limit: \(detail)"
        }
    }
}
