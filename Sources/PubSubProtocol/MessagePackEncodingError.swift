/// A value could not be written as MessagePack.
public struct MessagePackEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// A str or bin longer than 2³² − 1 bytes, or an array or map with more than 2³² − 1
        /// elements: MessagePack's 32-bit lengths cannot announce it.
        case lengthNotRepresentable(Int)
    }

    /// What went wrong.
    public let reason: Reason

    /// Creates an error for `reason`.
    public init(_ reason: Reason) { self.reason = reason }

    /// `Cannot encode MessagePack: <what>`.
    public var description: String {
        switch reason {
        case .lengthNotRepresentable(let length):
            return "Cannot encode MessagePack: length \(length) does not fit in 32 bits"
        }
    }
}
