@_spi(Cores) import MonotonicTime

/// Checks pub/sub delivery:
/// - nothing reaches a client that is not subscribed (its session's channel state is
///   `unsubscribed` when the publication is handed to the application);
/// - each client receives a publication at most once, and a publisher's publications on a
///   channel in the order they were published, among those its one connection carried (sequence
///   numbers strictly increase per receiver, publisher, channel and publisher connection: a
///   publication still in flight on a connection the publisher has left may arrive after one it
///   sent on its next connection, as over TCP);
/// - a publication the broker acknowledged reaches every client that was subscribed to its
///   channel on one connection for the whole interval from the publish call to the publication's
///   delivery deadline (`finish`).
///
/// The delivery deadline of a publication on a connection is its acknowledgement time plus the
/// connection's maximum one-way latency, plus every stall of the connection's broker-to-client
/// direction in between. A subscription's interval runs from the client's `subscribed` event to
/// the first of its `unsubscribed` event or a removal the broker made (kick-out, close, restart,
/// a reset the broker saw) after the client asked for the subscription; a removal after the ask
/// but before the answer may be one the broker made before subscribing again, so it ends the
/// interval too (the check errs towards asking less, never towards a false report).
package struct DeliveryChecker: Sendable {
    /// A publication the broker acknowledged (`publishWithAck` answered) or made itself.
    package struct Publication: Sendable {
        package var channel: String
        package var publisher: Int
        package var sequence: Int
        /// When the publisher called `publishWithAck` (the broker's own: when it published).
        package var calledAt: MonotonicInstant
        /// When the acknowledgement reached the publisher.
        package var ackedAt: MonotonicInstant

        package init(channel: String, publisher: Int, sequence: Int, calledAt: MonotonicInstant, ackedAt: MonotonicInstant) {
            self.channel = channel
            self.publisher = publisher
            self.sequence = sequence
            self.calledAt = calledAt
            self.ackedAt = ackedAt
        }
    }

    private struct Interval {
        var client: Int
        var channel: String
        var link: Int
        var requestedAt: MonotonicInstant
        var start: MonotonicInstant
        var end: MonotonicInstant?
    }

    private struct Connection {
        var maxLatency: Duration
        /// Stalls and holds of the broker-to-client direction; a hold not released yet has no end.
        var stalls: [(start: MonotonicInstant, end: MonotonicInstant?)] = []
        var removals: [(time: MonotonicInstant, channel: String?)] = []
    }

    private struct Stream: Hashable {
        var receiver: Int
        var publisher: Int
        var channel: String
        var connection: Int
    }

    private struct Receipt: Hashable {
        var receiver: Int
        var publisher: Int
        var sequence: Int
    }

    private var intervals: [Interval] = []
    private var openInterval: [Int: [String: Int]] = [:]
    private var lastRequest: [Int: [String: MonotonicInstant]] = [:]
    private var connections: [Int: Connection] = [:]
    private var lastSequence: [Stream: Int] = [:]
    private var receipts: Set<Receipt> = []
    private var publications: [Publication] = []
    /// Publications the check had to see delivered, over the run (for the report).
    package private(set) var requiredDeliveries = 0

    package init() {}

    // MARK: What the network and the broker did

    /// Connection `link` exists; its one-way latency is at most `maxLatency`.
    package mutating func connectionOpened(_ link: Int, maxLatency: Duration) {
        connections[link] = Connection(maxLatency: maxLatency)
    }

    /// The broker-to-client direction of `link` holds its messages from `start` to `end`.
    package mutating func stalled(_ link: Int, from start: MonotonicInstant, to end: MonotonicInstant) {
        connections[link]?.stalls.append((start, end))
    }

    /// The broker-to-client direction of `link` holds its messages from `start` until released.
    package mutating func held(_ link: Int, from start: MonotonicInstant) {
        connections[link]?.stalls.append((start, nil))
    }

    /// The hold of `link`'s broker-to-client direction ended at `end`.
    package mutating func released(_ link: Int, at end: MonotonicInstant) {
        guard let index = connections[link]?.stalls.lastIndex(where: { $0.end == nil }) else { return }
        connections[link]?.stalls[index].end = end
    }

    /// The broker dropped `link`'s subscription to `channel` (every channel when nil) at `time`.
    package mutating func brokerRemoved(_ link: Int, channel: String?, at time: MonotonicInstant) {
        connections[link]?.removals.append((time, channel))
    }

    /// A publication was acknowledged (or published by the broker itself).
    package mutating func acknowledged(_ publication: Publication) {
        publications.append(publication)
    }

    // MARK: What a client's session reported

    /// Client `client` sent `#subscribe` for `channel` on `link`.
    package mutating func subscribeRequested(_ client: Int, channel: String, at time: MonotonicInstant) {
        lastRequest[client, default: [:]][channel] = time
    }

    /// Client `client`'s session reported `channel` subscribed on `link`.
    package mutating func subscribed(_ client: Int, channel: String, link: Int, at time: MonotonicInstant) {
        ended(client, channel: channel, at: time)
        let requestedAt = lastRequest[client]?[channel] ?? time
        openInterval[client, default: [:]][channel] = intervals.count
        intervals.append(Interval(client: client, channel: channel, link: link, requestedAt: requestedAt, start: time))
    }

    /// Client `client`'s session reported `channel` no longer subscribed.
    package mutating func ended(_ client: Int, channel: String, at time: MonotonicInstant) {
        guard let index = openInterval[client]?.removeValue(forKey: channel) else { return }
        intervals[index].end = time
    }

    /// Client `receiver` handed the application a publication on `channel` that its publisher
    /// sent over `connection` (0 for the broker's own); `subscribed` says whether the application
    /// wanted the channel at that moment. Returns what this breaks, if anything.
    package mutating func delivered(
        to receiver: Int, channel: String, publisher: Int, sequence: Int, via connection: Int, subscribed: Bool,
        at time: MonotonicInstant
    ) -> Violation? {
        if !subscribed {
            return Violation(
                .delivery, at: time,
                "client \(receiver) received publication \(publisher)/\(sequence) on \(channel) while not subscribed to it")
        }
        let receipt = Receipt(receiver: receiver, publisher: publisher, sequence: sequence)
        if receipts.contains(receipt) {
            return Violation(.delivery, at: time, "client \(receiver) received publication \(publisher)/\(sequence) on \(channel) a second time")
        }
        let stream = Stream(receiver: receiver, publisher: publisher, channel: channel, connection: connection)
        if let last = lastSequence[stream], sequence <= last {
            return Violation(
                .delivery, at: time,
                "client \(receiver) received publication \(publisher)/\(sequence) on \(channel) after \(publisher)/\(last), "
                    + "both sent on connection \(connection) (out of order)")
        }
        lastSequence[stream] = sequence
        receipts.insert(receipt)
        return nil
    }

    // MARK: The verdict

    /// The acknowledged publications some continuously subscribed client never received. Call
    /// once the run has quiesced (`time` is then; open intervals last until it).
    package mutating func finish(at time: MonotonicInstant) -> [Violation] {
        var violations: [Violation] = []
        var byChannel: [String: [Int]] = [:]
        for (index, interval) in intervals.enumerated() { byChannel[interval.channel, default: []].append(index) }
        for publication in publications {
            for index in byChannel[publication.channel] ?? [] {
                let interval = intervals[index]
                guard interval.start < publication.calledAt, let connection = connections[interval.link] else { continue }
                let end = interval.end ?? time
                guard let deadline = Self.deadline(of: publication, on: connection), deadline < end else { continue }
                let removed = connection.removals.contains { removal in
                    (removal.channel == nil || removal.channel == publication.channel)
                        && removal.time >= interval.requestedAt && removal.time <= deadline
                }
                guard !removed else { continue }
                requiredDeliveries += 1
                let receipt = Receipt(receiver: interval.client, publisher: publication.publisher, sequence: publication.sequence)
                if !receipts.contains(receipt) {
                    violations.append(
                        Violation(
                            .delivery, at: time,
                            "client \(interval.client) never received publication \(publication.publisher)/\(publication.sequence) on "
                                + "\(publication.channel) (called \(Trace.format(publication.calledAt)), acknowledged "
                                + "\(Trace.format(publication.ackedAt)), deadline \(Trace.format(deadline))), though subscribed on "
                                + "connection \(interval.link) from \(Trace.format(interval.start)) to \(Trace.format(end))"))
                }
            }
        }
        return violations
    }

    /// Nil when a hold that was never released may have kept the publication from arriving.
    private static func deadline(of publication: Publication, on connection: Connection) -> MonotonicInstant? {
        var deadline = publication.ackedAt + connection.maxLatency
        for stall in connection.stalls where stall.start <= deadline {
            guard let stallEnd = stall.end else { return nil }
            guard stallEnd > publication.calledAt else { continue }
            deadline = deadline + (stallEnd - max(stall.start, publication.calledAt))
        }
        return deadline
    }
}
