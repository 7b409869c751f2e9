/// A client invoke's `cid` as the broker answers it: the integer, or the number's wire text when
/// it was written other than as a canonical `Int64` (`1.5`, `1e30`, `2^64`, `-2^63-1`), so the
/// `rid` is always the number the client sent (socketcluster-server echoes any numeric `cid`).
package struct BrokerCallID: Sendable, Hashable {
    /// One case or the other, so that the integer `cid` of every invoke is copied as plain bits
    /// (an optional string beside it cost a reference count call on each copy of a call).
    private enum Storage: Sendable, Hashable {
        case integer(Int64)
        case text(String)
    }

    private let storage: Storage

    /// The integer `cid` (0 when `text` is set).
    var value: Int64 {
        if case .integer(let value) = storage { value } else { 0 }
    }

    /// The wire text of a `cid` that is not a canonical `Int64`.
    var text: String? {
        if case .text(let text) = storage { text } else { nil }
    }

    init(_ value: Int64) {
        storage = .integer(value)
    }

    init(text: String) {
        storage = .text(text)
    }

    /// The response frame `make` builds for an integer rid, with this cid as its `rid`.
    func response(_ make: (Int64) -> [UInt8]) -> [UInt8] {
        switch storage {
        case .integer(let value): make(value)
        case .text(let text): Packet.replacingResponseRID(of: make(0), with: text)
        }
    }
}

extension [UInt8] {
    /// This response frame (serialized with `rid` `cid.value`) with `cid`'s wire text as its `rid`.
    func withResponseID(_ cid: BrokerCallID) -> [UInt8] {
        guard let text = cid.text else { return self }
        return Packet.replacingResponseRID(of: self, with: text)
    }
}
