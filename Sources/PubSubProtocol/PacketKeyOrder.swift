/// Member order used when writing an invoke packet. Peers ignore key order; this only makes our
/// frames byte-identical to the JavaScript implementation's.
///
/// This set is closed: there are two peers.
public enum PacketKeyOrder: Sendable, Hashable {
    /// `{"event","data","cid"}`, as socketcluster-client writes invokes.
    case client
    /// `{"event","cid","data"}`, as socketcluster-server writes invokes.
    case server
}
