import Dispatch

/// What a `Transport` reports to its owner, always on the queue given to `Transport.start`.
///
/// New cases may be added in a minor release (a half-closed write side, TLS details, ...); a
/// `switch` over it, for example in a `Transport` that wraps another, needs `default:` (pass
/// unknown events on unchanged).
public enum TransportEvent {
    /// The byte stream is ready: connected (client) or accepted and started (server).
    case connected
    /// Bytes read from the peer. The buffer is only valid during the handler call
    /// (it is the transport's reused read buffer); copy what must outlive it.
    case received(UnsafeRawBufferPointer)
    /// Every buffered byte was handed to the kernel (`bufferedAmount` fell to 0).
    case writable
    /// The peer finished sending (EOF). Writing may still work; the owner usually calls `close()`.
    case inputClosed
    /// The transport is closed: after `close()` (error `nil`) or on a failure. The last event.
    case closed(TransportError?)
}

/// A bidirectional byte stream (TCP, TLS over TCP, ...), the seam between the WebSocket
/// connection driver and the network.
///
/// Threading: a transport is confined to the serial queue passed to `start`. Every method
/// other than `start` must be called on that queue, and every event is delivered on it, so
/// an owner running on the same queue needs no locks. No event is delivered re-entrantly
/// from inside a method call.
public protocol Transport: AnyObject, Sendable {
    /// Starts connecting (or, for an accepted connection, reading). Call once.
    /// - Parameters:
    ///   - queue: the serial queue all events are delivered on and all calls must come from.
    ///   - handler: receives the events; `.closed` is delivered exactly once, last.
    func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void)

    /// Queues bytes for writing, in order. Bytes the kernel does not take now are kept and
    /// written as the socket drains (see `bufferedAmount`, `.writable`). Ignored once closing.
    func write(_ bytes: [UInt8])

    /// Bytes queued by `write` and not yet handed to the kernel.
    var bufferedAmount: Int { get }

    /// Stops (`true`) or resumes (`false`) reading from the peer, so that TCP flow control
    /// pushes back on the sender while the owner cannot take more. No `.received` event is
    /// delivered while paused; an EOF or reset is noticed once reading resumes.
    func setReadingPaused(_ paused: Bool)

    /// Closes the stream: buffered bytes are still written if the peer takes them within the
    /// transport's linger time, then the socket is closed and `.closed(nil)` is delivered.
    func close()
}

extension Transport {
    /// Default for transports that cannot pause: reading goes on (no push-back on the sender).
    public func setReadingPaused(_ paused: Bool) {}
}
