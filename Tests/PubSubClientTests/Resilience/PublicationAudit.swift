import Dispatch
import Foundation
@testable import PubSubClient

/// Checks that no publication is missed after a resubscription.
///
/// Publishers publish one numbered publication at a time (`publishAck`, awaited), recording
/// when each was made and whether the broker acknowledged it. Subscribers are watched on their
/// session queue: a `subscribed` event starts a connection epoch, `closed` ends it.
///
/// The rule, per subscriber, publisher and epoch: every publication the broker acknowledged
/// that was made after the epoch's subscription was confirmed must arrive, except those still
/// in flight when that connection was cut. Why this is exact: a publication made after the
/// confirmation reached the broker after the subscription did, and one publisher's publications
/// reach the broker in order (each waits for the previous one's acknowledgement) and travel to
/// the subscriber in order on one connection. So a missing publication followed, in the same
/// epoch, by a later one from the same publisher is a loss the client or broker caused; only
/// the tail of an epoch that ended with a cut may be lost in flight. Epochs still open at the
/// end have no such tail: `outstanding` must reach zero. Publications from one publisher must
/// also arrive in increasing order, never twice, across all epochs; the one exception is a
/// publication whose `publishAck` failed, which may still reach the broker late through the
/// cut connection's last bytes and so arrive after its successors (once).
/// `@unchecked Sendable`: guarded by `lock`.
final class PublicationAudit: @unchecked Sendable {
    private enum State: UInt8 { case pending, acknowledged, failed }

    /// What one subscriber saw from one publisher.
    private struct Stream {
        var lastReceived = 0
        var lastReceivedInEpoch: Int?
        /// Failed publications that arrived after a later one.
        var lateArrivals: Set<Int> = []
    }

    private struct Subscriber {
        /// When the current epoch's subscription was confirmed (uptime ns); nil between epochs.
        var epochStart: UInt64?
        var epochs = 0
        var receivedInEpochs = 0
        var streams: [Stream]
    }

    private let lock = NSLock()
    private let channel: String
    /// Per publisher, per sequence - 1: when it was made (uptime ns) and its state.
    private var madeAt: [[UInt64]]
    private var states: [[State]]
    private var subscribers: [Subscriber] = []
    private var problems: [String] = []
    private var received = 0
    private var receivedInEpochs = 0
    private var lateArrivals = 0

    init(channel: String, publishers: Int) {
        self.channel = channel
        madeAt = Array(repeating: [], count: publishers)
        states = Array(repeating: [], count: publishers)
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Publishing

    /// Publishes the next publication of `publisher` and waits for the broker's acknowledgement.
    @discardableResult
    func publish(from client: PubSubClient, as publisher: Int, ackTimeout: Duration? = nil) async -> Bool {
        let sequence = lock.withLock {
            madeAt[publisher].append(Self.now)
            states[publisher].append(.pending)
            return madeAt[publisher].count
        }
        let payload: JSONValue = ["p": .int(Int64(publisher)), "s": .int(Int64(sequence))]
        var acknowledged = true
        do { try await client.publishAck(channel, payload, ackTimeout: ackTimeout) } catch { acknowledged = false }
        lock.withLock { states[publisher][sequence - 1] = acknowledged ? .acknowledged : .failed }
        return acknowledged
    }

    // MARK: Subscribing

    /// Watches `client`'s events, on its session queue, as subscriber number `index` (from 0,
    /// in order). Call before the client subscribes.
    func watch(_ client: PubSubClient) {
        let index = lock.withLock {
            subscribers.append(Subscriber(streams: Array(repeating: Stream(), count: madeAt.count)))
            return subscribers.count - 1
        }
        _ = client.driver.register { router in
            router.addEventListener { [self] event in
                switch event {
                case .subscribed(let subscription) where subscription.channel == channel: beginEpoch(index)
                case .closed: lock.withLock { subscribers[index].epochStart = nil }
                case .publication(let publication) where publication.channel == channel: receive(publication.data, by: index)
                default: break
                }
            }
        }
    }

    private func beginEpoch(_ index: Int) {
        lock.withLock {
            subscribers[index].epochStart = Self.now
            subscribers[index].epochs += 1
            for publisher in subscribers[index].streams.indices { subscribers[index].streams[publisher].lastReceivedInEpoch = nil }
        }
    }

    private func receive(_ data: JSONValue?, by index: Int) {
        lock.withLock {
            received += 1
            guard let publisher = data?["p"]?.intValue.map(Int.init), let sequence = data?["s"]?.intValue.map(Int.init),
                madeAt.indices.contains(publisher), (1...madeAt[publisher].count).contains(sequence)
            else {
                problems.append("subscriber \(index) received an unknown publication \(String(describing: data))")
                return
            }
            var stream = subscribers[index].streams[publisher]
            defer { subscribers[index].streams[publisher] = stream }
            guard sequence > stream.lastReceived else {
                // A publication whose publishAck failed may have been written to a connection
                // that was then cut and still reach the broker after its successors (the dead
                // connection's bytes drain late): it may arrive late, but only once.
                if states[publisher][sequence - 1] == .failed, stream.lateArrivals.insert(sequence).inserted {
                    lateArrivals += 1
                    return
                }
                problems.append(
                    "subscriber \(index) received publication \(sequence) (\(states[publisher][sequence - 1])) of publisher \(publisher) after \(stream.lastReceived)"
                )
                return
            }
            if let start = subscribers[index].epochStart {
                let from = max(stream.lastReceivedInEpoch ?? 0, firstMade(after: start, by: publisher) - 1) + 1
                for missing in from..<max(from, sequence) where states[publisher][missing - 1] == .acknowledged {
                    problems.append(
                        "subscriber \(index) missed publication \(missing) of publisher \(publisher) (received \(sequence) after it in the same epoch)")
                }
                receivedInEpochs += 1
                subscribers[index].receivedInEpochs += 1
                stream.lastReceivedInEpoch = sequence
            }
            stream.lastReceived = sequence
        }
    }

    /// The first sequence of `publisher` made after `instant` (count + 1 if none). Caller holds `lock`.
    private func firstMade(after instant: UInt64, by publisher: Int) -> Int {
        var low = 0, high = madeAt[publisher].count
        while low < high {
            let middle = (low + high) / 2
            if madeAt[publisher][middle] > instant { high = middle } else { low = middle + 1 }
        }
        return low + 1
    }

    // MARK: Verdict

    /// Publications every open epoch must still receive: acknowledged, made after the epoch
    /// began, and later than the last one received from that publisher. Zero once delivery is
    /// complete and nothing was missed.
    var outstanding: Int {
        lock.withLock {
            var count = 0
            for subscriber in subscribers {
                guard let start = subscriber.epochStart else { continue }
                for (publisher, stream) in subscriber.streams.enumerated() {
                    let from = max(stream.lastReceivedInEpoch ?? 0, firstMade(after: start, by: publisher) - 1) + 1
                    guard from <= madeAt[publisher].count else { continue }
                    for sequence in from...madeAt[publisher].count where states[publisher][sequence - 1] == .acknowledged {
                        count += 1
                    }
                }
            }
            return count
        }
    }

    /// Bytes of storage the audit holds for its records (grows with the publications made).
    var storageBytes: Int {
        lock.withLock {
            madeAt.reduce(0) { $0 + $1.capacity * MemoryLayout<UInt64>.stride }
                + states.reduce(0) { $0 + $1.capacity * MemoryLayout<State>.stride }
        }
    }

    /// Subscriptions confirmed so far for subscriber `index` (1 + resubscriptions).
    func epochCount(subscriber index: Int) -> Int { lock.withLock { subscribers[index].epochs } }

    /// Publications received so far by subscriber `index` inside an epoch.
    func receivedCount(subscriber index: Int) -> Int {
        lock.withLock { subscribers[index].receivedInEpochs }
    }

    /// Losses, duplicates and reorderings seen so far (at most `limit` lines).
    func violations(limit: Int = 20) -> [String] { lock.withLock { Array(problems.prefix(limit)) } }

    /// Publications made, acknowledged by the broker, received (all subscribers), received
    /// inside an epoch (where the rule applies), received late (failed ones that arrived after
    /// a later one), and epochs begun (all subscribers).
    var counts: (made: Int, acknowledged: Int, received: Int, receivedInEpochs: Int, late: Int, epochs: Int) {
        lock.withLock {
            let made = madeAt.reduce(0) { $0 + $1.count }
            let acknowledged = states.reduce(0) { $0 + $1.filter { $0 == .acknowledged }.count }
            return (made, acknowledged, received, receivedInEpochs, lateArrivals, subscribers.reduce(0) { $0 + $1.epochs })
        }
    }
}
