/// A socket's session in `BrokerCore`'s table, held by reference so that handling a message
/// changes the session where it lies.
///
/// With the sessions stored as values, every `sessions[connection]?.…` copied the whole session
/// out (a retain and a release of each reference it holds, through its value witness) and every
/// read copied it too: Swift's `Dictionary` writes a modified value back from a copy. Through a
/// slot, a read copies one reference and a change is made in place.
///
/// The core has one owner (its engine, on one queue); a copy of a core shares its slots.
final class BrokerSessionSlot {
    var session: BrokerSocketSession

    init(_ session: BrokerSocketSession) {
        self.session = session
    }
}
