// Micro-benchmarks of the SocketCluster wire model (PubSubProtocol): classifying received frames
// (JSON parse + packet classification) and serializing packets, small and large. Prints one
// JSON line per benchmark. Run the release build: `swift run -c release pubsub-microbench`.
import BenchSupport
import PubSubProtocol

Microbenchmark.checkCommandLine(
    usage: Microbenchmark.usage(describing: "Micro-benchmarks of the SocketCluster wire model: frame parse and classification, packet and JSON serialization"))

let payload32 = String(repeating: "abcdefgh", count: 4)
let payload4K = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 92).prefix(4096)

/// Frames as a client receives them from a server.
let frames: [(String, String)] = [
    ("response_small", #"{"rid":12345,"data":"\#(payload32)"}"#),
    ("invoke_small", #"{"event":"echo","data":"\#(payload32)","cid":12345}"#),
    ("publish_small", ##"{"event":"#publish","data":{"channel":"pubsubbench/fanout","data":{"i":1234,"p":"\##(payload32)","t":987654321012}}}"##),
    ("response_4KiB_string", #"{"rid":7,"data":"\#(payload4K)"}"#),
    ("batch_100_responses", "[" + (0..<100).map { #"{"rid":\#($0),"data":{"ok":true,"n":\#($0),"name":"item \#($0)"}}"# }.joined(separator: ",") + "]"),
]

for (name, text) in frames {
    let count = 1000
    Microbenchmark.measure("parse_\(name)", bytesPerRun: text.utf8.count * count, opsPerRun: count) {
        var total = 0
        for _ in 0..<count {
            switch InboundFrame(text: text) {
            case .packets(let packets): total &+= packets.count
            default: total &+= 1_000_000
            }
        }
        return total
    }
}

/// A JSON document of about 1 MiB: an array of small objects with strings and numbers.
let document: [UInt8] = {
    var parts: [String] = []
    var size = 2
    var i = 0
    while size < 1 << 20 {
        let part = #"{"id":\#(i),"name":"user \#(i)","score":\#(Double(i) * 1.5),"tags":["a","b","c"],"active":\#(i % 2 == 0)}"#
        parts.append(part)
        size += part.utf8.count + 1
        i += 1
    }
    return Array(("[" + parts.joined(separator: ",") + "]").utf8)
}()
Microbenchmark.measure("parse_json_1MiB_objects", bytesPerRun: document.count, opsPerRun: 1) {
    do {
        return try JSONValue(parsing: document).arrayValue?.count ?? -1
    } catch {
        fatalError("benchmark document does not parse: \(error)")
    }
}

let packets: [(String, Packet)] = [
    ("invoke_small", .invoke(event: "echo", data: .string(payload32), cid: 12345)),
    (
        "publish_small",
        .invoke(event: "#publish", data: ["channel": "pubsubbench/fanout", "data": ["i": 1234, "t": 987654321012, "p": .string(payload32)]], cid: 77)
    ),
    ("transmit_4KiB_string", .transmit(event: "chat", data: .string(String(payload4K)))),
]
for (name, packet) in packets {
    let count = 1000
    let size = packet.serializedBytes().count
    Microbenchmark.measure("serialize_\(name)", bytesPerRun: size * count, opsPerRun: count) {
        var total = 0
        for _ in 0..<count { total &+= packet.serializedBytes().count }
        return total
    }
}
let parsedDocument: JSONValue
do {
    parsedDocument = try JSONValue(parsing: document)
} catch {
    fatalError("benchmark document does not parse: \(error)")
}
Microbenchmark.measure("serialize_json_1MiB_objects", bytesPerRun: document.count, opsPerRun: 1) {
    parsedDocument.serializedBytes().count
}
