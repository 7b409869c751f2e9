/// The sockets subscribed to one channel, in subscription order (fan-out follows this order).
struct ChannelSubscribers {
    private var sequenceByConnection: [BrokerConnectionID: UInt64] = [:]
    private var nextSequence: UInt64 = 0
    /// Cached fan-out order; rebuilt lazily after a change.
    private var ordered: [BrokerConnectionID]? = []

    var isEmpty: Bool { sequenceByConnection.isEmpty }
    var count: Int { sequenceByConnection.count }

    func contains(_ connection: BrokerConnectionID) -> Bool {
        sequenceByConnection[connection] != nil
    }

    /// Adds `connection` at the end; a connection already present keeps its place.
    mutating func insert(_ connection: BrokerConnectionID) {
        guard sequenceByConnection[connection] == nil else { return }
        sequenceByConnection[connection] = nextSequence
        nextSequence &+= 1
        ordered?.append(connection)
    }

    mutating func remove(_ connection: BrokerConnectionID) {
        guard sequenceByConnection.removeValue(forKey: connection) != nil else { return }
        ordered = nil
    }

    /// The subscribers in the order they subscribed.
    mutating func inOrder() -> [BrokerConnectionID] {
        if let ordered { return ordered }
        let rebuilt = sequenceByConnection.sorted { $0.value < $1.value }.map(\.key)
        ordered = rebuilt
        return rebuilt
    }
}
