/// Names one WebSocket connection inside a broker; assigned by the I/O layer, never reused.
struct BrokerConnectionID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    var description: String { "connection #\(rawValue)" }
}
