/// A connection that became a slow consumer, just before the broker closes it with
/// `BrokerOptions.slowConsumerCloseCode`: what `PubSubBroker.onSlowConsumer` handlers receive.
/// New fields may be added in minor releases.
public struct BrokerSlowConsumer: Sendable {
    /// The socket being closed.
    public var socket: BrokerSocket
    /// The bytes it had waiting to be written (more than `BrokerOptions.maxOutboundBufferedBytes`).
    public var bufferedBytes: Int
}
