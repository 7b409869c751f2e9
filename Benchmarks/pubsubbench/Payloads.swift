import BenchSupport
import PubSubClient

/// The 16 payload strings (pattern `i mod 16` for message `i`, byte `j` of pattern `k` is
/// `'a' + (k + j) mod 26`, as in the WebSocket benchmark contract), built before the clock starts.
struct Payloads: Sendable {
    let strings: [String]
    let values: [JSONValue]

    init(size: Int) {
        strings = ContractPatterns.make(size: size, binary: false).map { String(decoding: $0, as: UTF8.self) }
        values = strings.map { JSONValue.string($0) }
    }
}
