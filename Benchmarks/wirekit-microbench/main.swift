// Microbenchmarks of WireKit's sans-I/O core: frame decoding and encoding through the state
// machine, unmasking and UTF-8 validation. Prints one JSON line per benchmark.
// Run with `swift run -c release wirekit-microbench [--filter TEXT] [--seconds S]`.
import BenchSupport
import WireKit

Microbenchmark.checkCommandLine(
    usage: Microbenchmark.usage(describing: "Micro-benchmarks of WireKit's sans-I/O core: frame decode and encode, unmasking, UTF-8 validation, URL parsing"))

let now = WebSocketInstant(nanoseconds: 1)

/// A state machine past its handshake, in the given role.
func openMachine(_ role: WebSocketRole) -> WebSocketStateMachine {
    var configuration = WebSocketConfiguration()
    configuration.maxFrameSize = 64 << 20
    configuration.maxMessageSize = 64 << 20
    switch role {
    case .server:
        var machine = WebSocketStateMachine(server: configuration)
        let request =
            "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        machine.receive(Array(request.utf8), now: now)
        _ = machine.takeOutput()
        while machine.nextEvent() != nil {}
        return machine
    case .client:
        let handshake: ClientHandshake
        do {
            handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        } catch {
            fatalError("benchmark setup: \(error)")
        }
        var machine = WebSocketStateMachine(client: handshake, configuration: configuration)
        machine.start(now: now)
        _ = machine.takeOutput()
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\n\r\n"
        machine.receive(Array(response.utf8), now: now)
        while machine.nextEvent() != nil {}
        return machine
    }
}

/// `count` frames of `payload` as `role`'s peer would send them, back to back.
func stream(_ opcode: WebSocketOpcode, payload: [UInt8], count: Int, to role: WebSocketRole) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<count {
        WebSocketFrameEncoder.encode(WebSocketFrame(opcode: opcode, maskingKey: role == .server ? .random() : nil, payload: payload), into: &bytes)
    }
    return bytes
}

func decodeBenchmark(_ name: String, _ opcode: WebSocketOpcode, payloadSize: Int, framesPerRead: Int, role: WebSocketRole) {
    let text = String(repeating: "Hello, WebSocket! ", count: payloadSize / 18 + 1)
    let payload = opcode == .text ? Array(text.utf8.prefix(payloadSize)) : (0..<payloadSize).map { UInt8(truncatingIfNeeded: $0) }
    let input = stream(opcode, payload: payload, count: framesPerRead, to: role)
    var machine = openMachine(role)
    Microbenchmark.measure(name, bytesPerRun: input.count, opsPerRun: framesPerRead) {
        var total = 0
        input.withUnsafeBytes { machine.receive($0, now: now) }
        while let event = machine.nextEvent() {
            switch event {
            case .text(let string): total &+= string.utf8.count
            case .binary(let data): total &+= data.count
            default: total &+= 1_000_000
            }
        }
        return total
    }
}

func encodeBenchmark(_ name: String, payloadSize: Int, framesPerRun: Int, role: WebSocketRole, text: Bool) {
    var machine = openMachine(role)
    let payload = (0..<payloadSize).map { UInt8(truncatingIfNeeded: $0 % 64 + 32) }
    let string = String(decoding: payload, as: UTF8.self)
    var out: [UInt8] = []
    Microbenchmark.measure(name, bytesPerRun: payloadSize * framesPerRun, opsPerRun: framesPerRun) {
        for _ in 0..<framesPerRun {
            do {
                if text { try machine.sendText(string) } else { try machine.sendBinary(payload) }
            } catch {
                fatalError("benchmark send: \(error)")
            }
        }
        out.removeAll(keepingCapacity: true)
        machine.takeOutput(appendingTo: &out)
        return out.count
    }
}

decodeBenchmark("decode_small_text_client", .text, payloadSize: 16, framesPerRead: 1000, role: .client)
decodeBenchmark("decode_small_text_server_masked", .text, payloadSize: 16, framesPerRead: 1000, role: .server)
decodeBenchmark("decode_4KiB_binary_client", .binary, payloadSize: 4096, framesPerRead: 64, role: .client)
decodeBenchmark("decode_4KiB_text_server_masked", .text, payloadSize: 4096, framesPerRead: 64, role: .server)
decodeBenchmark("decode_1MiB_binary_server_masked", .binary, payloadSize: 1 << 20, framesPerRead: 1, role: .server)
decodeBenchmark("decode_1MiB_binary_client", .binary, payloadSize: 1 << 20, framesPerRead: 1, role: .client)
decodeBenchmark("decode_1MiB_text_client", .text, payloadSize: 1 << 20, framesPerRead: 1, role: .client)
encodeBenchmark("encode_small_text_client_masked", payloadSize: 16, framesPerRun: 1000, role: .client, text: true)
encodeBenchmark("encode_small_text_server", payloadSize: 16, framesPerRun: 1000, role: .server, text: true)
encodeBenchmark("encode_4KiB_binary_client_masked", payloadSize: 4096, framesPerRun: 64, role: .client, text: false)
encodeBenchmark("encode_1MiB_binary_client_masked", payloadSize: 1 << 20, framesPerRun: 1, role: .client, text: false)

var block = [UInt8](repeating: 0x5A, count: 1 << 20)
Microbenchmark.measure("unmask_1MiB_in_place", bytesPerRun: block.count, opsPerRun: 1) {
    block.withUnsafeMutableBytes { WebSocketMasking.apply(WebSocketMaskingKey(0x1234_5678), to: $0, phase: 1) }
    return Int(block[17])
}

let ascii = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 23_302).utf8.prefix(1 << 20))
let mixed = Array(String(repeating: "Grüße, κόσμε, 你好, 🙂 and some ASCII. ", count: 30_000).utf8.prefix(1 << 20 - 8))
for (name, bytes) in [("utf8_validate_1MiB_ascii", ascii), ("utf8_validate_1MiB_mixed", mixed)] {
    Microbenchmark.measure(name, bytesPerRun: bytes.count, opsPerRun: 1) {
        var validator = UTF8Validator()
        return bytes.withUnsafeBytes { validator.validate($0) } ? validator.validatedCount : -1
    }
}

if Microbenchmark.selects("unmask_64MiB_in_place_median") {
    var big = [UInt8](repeating: 0, count: 64 << 20)
    for i in big.indices { big[i] = UInt8(truncatingIfNeeded: i &* 31) }
    Microbenchmark.medianPassRate("unmask_64MiB_in_place_median", bytes: big.count) {
        big.withUnsafeMutableBytes { WebSocketMasking.apply(WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D), to: $0) }
    }
    // Keeps the passes from being optimized away.
    let sample = big.withUnsafeBytes { bytes in stride(from: 0, to: bytes.count, by: 4096).reduce(0) { $0 &+ Int(bytes[$1]) } }
    print("{\"benchmark\":\"unmask_64MiB_checksum\",\"checksum\":\(sample)}")
}

let urlText = "ws://chat.example.com:8080/socketcluster/?token=abc"
Microbenchmark.measure("url_parse", bytesPerRun: urlText.utf8.count * 1000, opsPerRun: 1000) {
    var total = 0
    for _ in 0..<1000 {
        do {
            total &+= try WebSocketURL(urlText).port
        } catch {
            fatalError("benchmark URL does not parse: \(error)")
        }
    }
    return total
}
