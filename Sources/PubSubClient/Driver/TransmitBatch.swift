/// Transmits given from other threads while the session was open, sent by one queue block.
/// `@unchecked Sendable`: `bodies` is appended to under the driver's `transmitLock` until the
/// block takes the batch, and read only by that block afterwards.
final class TransmitBatch: @unchecked Sendable {
    /// Each transmit's step; it returns the error it met (not `throws(PubSubError)`: an array of
    /// typed-throws closures needs the Swift 6 runtime on Apple platforms).
    var bodies: [TransmitBatch.Step]

    typealias Step = @Sendable (inout ClientSession, MonotonicInstant) -> PubSubError?

    init(_ first: @escaping Step) {
        bodies = [first]
    }
}
