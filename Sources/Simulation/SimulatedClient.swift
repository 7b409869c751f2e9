@_spi(Cores) import MonotonicTime
import PubSubClient

/// One client of the simulation: the real `ClientSession`, the transports it opened, and what
/// its application (the workload) wants, so the checkers can compare.
final class SimulatedClient {
    let index: Int
    var session: ClientSession
    /// The simulator's link for each transport the session opened and has not seen closed.
    var linkByTransport: [UInt64: Int] = [:]
    /// Whether the application wants to be connected (it called `connect`, and no close since
    /// told it the session stopped reconnecting).
    var wantsConnected = false
    /// Channels the application subscribed to and has not unsubscribed from, updated in the order
    /// the session reports (a kick-out or a final refusal removes one).
    var wanted: Set<String> = []
    /// The next sequence number this client publishes with.
    var nextSequence = 1
    /// Publishes with ack not answered yet: call number → channel, sequence, when called.
    var publishCalls: [UInt64: (channel: String, sequence: Int, calledAt: MonotonicInstant)] = [:]
    /// The last token the broker issued to this client, for `authenticate`.
    var issuedToken: String?
    /// The token store's content.
    var storedToken: String?

    init(index: Int, session: ClientSession) {
        self.index = index
        self.session = session
    }

    /// The transport the session opened last and has not closed or seen closed.
    var currentTransport: UInt64?

    /// The link of the session's current transport, if the session has one.
    var currentLink: Int? { currentTransport.flatMap { linkByTransport[$0] } }
}
