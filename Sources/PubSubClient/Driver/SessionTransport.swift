import Dispatch

/// What a transport reports to the session driver.
enum SessionTransportEvent: Sendable {
    case opened
    case text(String)
    case binary([UInt8])
    /// Closed, or failed to open (1006 when no close frame was received).
    case closed(code: UInt16, reason: String)
}

/// One WebSocket connection as the driver needs it. Implementations deliver their events on
/// the queue they were opened with, in order, and `closed` exactly once.
protocol SessionTransport: AnyObject, Sendable {
    func send(text: String)
    func close(code: UInt16, reason: String)
}

/// Opens transports; WireKit's WebSocket in production, an in-memory fake in tests.
protocol SessionTransportFactory: Sendable {
    func open(url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
              onEvent: @escaping @Sendable (SessionTransportEvent) -> Void) -> any SessionTransport
}
