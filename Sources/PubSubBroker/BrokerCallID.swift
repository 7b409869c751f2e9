/// A client invoke's `cid` as the broker answers it: the integer, or the number's wire text when
/// it was written other than as a canonical `Int64` (`1.5`, `1e30`, `2^64`, `-2^63-1`), so the
/// `rid` is always the number the client sent (socketcluster-server echoes any numeric `cid`).
struct BrokerCallID: Sendable, Hashable {
    /// The integer `cid` (0 when `text` is set).
    let value: Int64
    /// The wire text of a `cid` that is not a canonical `Int64`.
    let text: String?

    init(_ value: Int64) {
        self.value = value
        self.text = nil
    }

    init(text: String) {
        self.value = 0
        self.text = text
    }

    /// The response frame `make` builds for an integer rid, with this cid as its `rid`.
    func response(_ make: (Int64) -> [UInt8]) -> [UInt8] {
        guard let text else { return make(value) }
        return Packet.replacingResponseRID(of: make(0), with: text)
    }
}

extension [UInt8] {
    /// This response frame (serialized with `rid` `cid.value`) with `cid`'s wire text as its `rid`.
    func withResponseID(_ cid: BrokerCallID) -> [UInt8] {
        guard let text = cid.text else { return self }
        return Packet.replacingResponseRID(of: self, with: text)
    }
}
