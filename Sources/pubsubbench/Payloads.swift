import PubSubClient

/// The 16 payload strings (pattern `i mod 16` for message `i`, byte `j` of pattern `k` is
/// `'a' + (k + j) mod 26`, as in the WebSocket benchmark contract), built before the clock starts.
struct Payloads: Sendable {
    let strings: [String]
    let values: [JSONValue]

    init(size: Int) {
        var sequence = [UInt8](repeating: 0, count: size + 16)
        for j in sequence.indices { sequence[j] = UInt8(ascii: "a") &+ UInt8(j % 26) }
        strings = (0..<16).map { k in String(decoding: sequence[k..<(k + size)], as: UTF8.self) }
        values = strings.map { JSONValue.string($0) }
    }
}
