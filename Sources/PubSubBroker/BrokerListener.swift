/// The network side of a started broker: the listening socket and its connections.
protocol BrokerListener: AnyObject, Sendable {
    /// The TCP port actually bound (the free port chosen when 0 was asked for).
    var port: Int { get }
    /// Stops accepting and waits until every connection is closed.
    func stop() async
}
