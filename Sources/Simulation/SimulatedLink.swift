@_spi(Cores) import MonotonicTime
import PubSubBroker
import PubSubClient

/// One simulated connection between a client session's transport and the broker, at the level
/// of SocketCluster messages: each WebSocket message the codec writes (text or binary) and the
/// close frame travel as one unit, in order per direction, with their own latency. Faults act on
/// a link: a stall holds one direction for a while, a hold keeps it until released, a reset drops
/// what is in flight and tells one or both ends.
final class SimulatedLink {
    /// What travels over a link.
    enum Message {
        case text([UInt8])
        case binary([UInt8])
        case close(code: UInt16, reason: String)
    }

    /// A message in flight, with the link whose message made the broker write it (0 when the
    /// broker wrote it on its own): a publication's origin is its publisher's connection.
    struct Parcel {
        var message: Message
        var origin: Int
        /// An auth change crossing the link (`#setAuthToken` down, `#removeAuthToken` up).
        var authChange = false
    }

    /// One direction of the link: messages in send order, each with the instant it arrives.
    struct Direction {
        var queue: [(at: MonotonicInstant, parcel: Parcel)] = []
        var head = 0
        /// Arrival of the last message queued; a later message never overtakes it.
        var lastArrival = SimulatedClock.start
        /// Nothing arrives before this instant (a stall).
        var stalledUntil: MonotonicInstant?
        /// Nothing arrives until the hold is released.
        var held = false
        /// Whether a delivery event for this direction is scheduled.
        var scheduled = false

        var isEmpty: Bool { head == queue.count }
        var count: Int { queue.count - head }

        /// Auth changes (`authChange` parcels) queued and not delivered yet.
        var authChangesInFlight = 0
        /// The event name that is an auth change in this direction.
        let authEvent: [UInt8]

        init(authEvent: String) {
            self.authEvent = Array(authEvent.utf8)
        }

        mutating func append(_ message: Message, origin: Int = 0, at arrival: MonotonicInstant) {
            let at = max(arrival, lastArrival)
            lastArrival = at
            var parcel = Parcel(message: message, origin: origin)
            switch message {
            case .text(let bytes), .binary(let bytes):
                parcel.authChange = Self.contains(bytes, authEvent)
                if parcel.authChange { authChangesInFlight += 1 }
            case .close:
                break
            }
            queue.append((at, parcel))
        }

        /// Whether a short message carries `needle` (an event name: the JSON and min-bin codecs
        /// both write it as plain UTF-8).
        static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
            guard bytes.count < 1024, bytes.count >= needle.count, let first = needle.first else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == first {
                if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }

        /// When the head message can arrive, if it can.
        var nextArrival: MonotonicInstant? {
            guard !held, head < queue.count else { return nil }
            let at = queue[head].at
            if let stalledUntil, stalledUntil > at { return stalledUntil }
            return at
        }

        mutating func popHead() -> Parcel {
            let message = queue[head].parcel
            if message.authChange { authChangesInFlight -= 1 }
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return message
        }

        mutating func drop() {
            queue.removeAll()
            head = 0
            authChangesInFlight = 0
        }
    }

    enum Phase: Equatable {
        /// The client asked for it; the broker has not accepted it yet.
        case connecting
        /// Accepted: both ends may have it open.
        case open
        /// Gone for both ends.
        case closed
    }

    let id: Int
    let client: Int
    let transport: TransportID
    var phase: Phase = .connecting
    /// The broker's name for it once accepted.
    var connection: BrokerConnectionID?
    /// Which broker incarnation accepted it (a restart forgets every connection).
    var brokerIncarnation = 0
    /// Whether the client session still treats it as its transport.
    var clientOpen = false
    /// Whether the broker still holds its session.
    var brokerOpen = false
    let minLatency: Duration
    let maxLatency: Duration
    /// A client `#removeAuthToken` and a broker `#setAuthToken` were in flight at once on this
    /// link: the broker reads the client's `#removeAuthToken` after issuing the token, the client
    /// reads the token after sending it, and the protocol has no way to settle which came first.
    var authCrossed = false
    /// Client to broker.
    var up = Direction(authEvent: "#removeAuthToken")
    /// Broker to client.
    var down = Direction(authEvent: "#setAuthToken")

    init(id: Int, client: Int, transport: TransportID, minLatency: Duration, maxLatency: Duration) {
        self.id = id
        self.client = client
        self.transport = transport
        self.minLatency = minLatency
        self.maxLatency = maxLatency
    }
}
