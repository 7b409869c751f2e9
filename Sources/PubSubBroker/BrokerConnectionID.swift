/// Names one WebSocket connection inside a broker; assigned by the I/O layer, never reused.
package struct BrokerConnectionID: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt64

    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package var description: String { "connection #\(rawValue)" }
}
