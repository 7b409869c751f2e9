import Dispatch
import WireKit

/// What a transport reports to the session driver.
enum SessionTransportEvent: Sendable {
    case opened
    case text(String)
    case binary([UInt8])
    /// Closed, or failed to open (1006 when no close frame was received); `error` says why the
    /// transport failed, when it did.
    case closed(code: UInt16, reason: String, error: TransportFailure? = nil)
    /// The messages of one read were all delivered (sent by transports whose
    /// `reportsEndOfReads` is true, after the last message of each read, even once closed).
    case endOfRead
}

/// One WebSocket connection as the driver needs it. Implementations deliver their events on
/// the queue they were opened with, in order, and `closed` exactly once. `send` and `flush` are
/// called on that queue.
protocol SessionTransport: AnyObject, Sendable {
    /// Queues one text message, given as its UTF-8 (trusted: the session serialized it); it may
    /// wait for the next `flush()`.
    func send(utf8: [UInt8])
    /// Queues one binary message (a binary codec's packet); it may wait for the next `flush()`.
    func send(binary: [UInt8])
    /// Writes what `send` queued, at once (the driver calls it at the end of each session step,
    /// so one step's messages leave in one write).
    func flush()
    func close(code: UInt16, reason: String)
    /// Stops or resumes reading the socket (TCP then pushes back on the server) while an app
    /// stream is behind; applies once the connection is open.
    func setReadingPaused(_ paused: Bool)
    /// Waits until the connection is over (closing handshake done or timed out) and returns
    /// how it ended; nil when the transport cannot tell.
    func closed() async -> WebSocketCloseInfo?
    /// Whether an `endOfRead` event follows the messages of each read. The driver then resumes
    /// the tasks on its executor once per read rather than once per message.
    var reportsEndOfReads: Bool { get }
}

extension SessionTransport {
    func flush() {}
    var reportsEndOfReads: Bool { false }
    /// Transports that cannot pause keep reading.
    func setReadingPaused(_ paused: Bool) {}
}

/// Opens transports; WireKit's WebSocket in production, an in-memory fake in tests.
protocol SessionTransportFactory: Sendable {
    func open(
        url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
        onEvent: @escaping @Sendable (SessionTransportEvent) -> Void
    ) -> any SessionTransport
}
