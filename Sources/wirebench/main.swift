import Dispatch
import Foundation
import WireKit

// wirebench: a WebSocket client benchmark on WireKit, following the shared bench contract:
//
//   wirebench --url ws://127.0.0.1:PORT/ --mode rtt|pipeline|bulk|connections
//             [--count N] [--size BYTES] [--window W] [--connections C] [--binary]
//
// Every echo is verified byte for byte (and by type) as part of the timed work. The last
// stdout line is one JSON object. All sockets run on one serial queue: their callbacks run
// inline there, so a message costs no thread hop.

struct Arguments {
    var url = ""
    var mode = ""
    var count = 0
    var size = 0
    var window = 1
    var connections = 0
    var binary = false
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wirebench: \(message)\n".utf8))
    let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    print("{\"ok\":false,\"error\":\"\(escaped)\"}")
    exit(1)
}

func parseArguments() -> Arguments {
    var arguments = Arguments()
    var rest = CommandLine.arguments.dropFirst()
    func value(_ name: String) -> String {
        guard let next = rest.popFirst() else { fail("\(name) needs a value") }
        return next
    }
    func number(_ name: String) -> Int {
        let text = value(name)
        guard let n = Int(text), n >= 0 else { fail("\(name) must be a non-negative integer, got \(text)") }
        return n
    }
    while let option = rest.popFirst() {
        switch option {
        case "--url": arguments.url = value(option)
        case "--mode": arguments.mode = value(option)
        case "--count": arguments.count = number(option)
        case "--size": arguments.size = number(option)
        case "--window": arguments.window = max(1, number(option))
        case "--connections": arguments.connections = number(option)
        case "--binary": arguments.binary = true
        default: fail("unknown option \(option)")
        }
    }
    guard !arguments.url.isEmpty else { fail("--url is required") }
    guard ["rtt", "pipeline", "bulk", "connections"].contains(arguments.mode) else { fail("--mode must be rtt, pipeline, bulk or connections") }
    if arguments.mode == "bulk" { arguments.binary = true }
    return arguments
}

/// The 16 payload patterns of the contract: text `'a' + (k + j) mod 26`, binary `(k + j) mod 256`.
struct Patterns: Sendable {
    let texts: [String]
    let datas: [Data]

    init(size: Int, binary: Bool) {
        var texts: [String] = []
        var datas: [Data] = []
        for k in 0..<16 {
            if binary {
                datas.append(Data((0..<size).map { UInt8(truncatingIfNeeded: k + $0) }))
            } else {
                texts.append(String(decoding: (0..<size).map { UInt8(ascii: "a") + UInt8((k + $0) % 26) }, as: UTF8.self))
            }
        }
        self.texts = texts
        self.datas = datas
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func peakRSSKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }

let arguments = parseArguments()
let patterns = Patterns(size: arguments.size, binary: arguments.binary)
let queue = DispatchQueue(label: "wirebench")

/// Message traffic over one connection (rtt, pipeline, bulk). Confined to `queue`.
final class Exchange: @unchecked Sendable {
    let socket: WebSocket
    let count: Int
    let window: Int
    let binary: Bool
    let recordLatency: Bool
    var sent = 0
    var received = 0
    var sendTimes: [UInt64]
    var latencies: [UInt64]
    var started: UInt64 = 0
    var finished: UInt64 = 0
    var done: CheckedContinuation<Void, Never>?

    init(socket: WebSocket, arguments: Arguments) {
        self.socket = socket
        count = arguments.count
        window = arguments.mode == "rtt" ? 1 : arguments.window
        binary = arguments.binary
        recordLatency = arguments.mode == "rtt"
        sendTimes = recordLatency ? [UInt64](repeating: 0, count: arguments.count) : []
        latencies = recordLatency ? [UInt64](repeating: 0, count: arguments.count) : []
    }

    func sendNext() {
        let i = sent
        sent += 1
        if recordLatency { sendTimes[i] = now() }
        do {
            if binary { try socket.write(data: patterns.datas[i & 15]) } else { try socket.write(text: patterns.texts[i & 15]) }
        } catch {
            fail("send \(i) failed: \(error)")
        }
    }

    func echoed(text: String?, data: Data?) {
        let i = received
        if binary {
            guard let data else { fail("echo \(i) is text, expected binary") }
            guard data == patterns.datas[i & 15] else { fail("echo \(i) differs from message \(i)") }
        } else {
            guard let text else { fail("echo \(i) is binary, expected text") }
            guard text == patterns.texts[i & 15] else { fail("echo \(i) differs from message \(i)") }
        }
        if recordLatency { latencies[i] = now() - sendTimes[i] }
        received += 1
        if received == count {
            finished = now()
            done?.resume()
            done = nil
        } else if sent < count {
            sendNext()
        }
    }

    func run() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                done = continuation
                socket.onText = { [unowned self] text in echoed(text: text, data: nil) }
                socket.onBinary = { [unowned self] data in echoed(text: nil, data: data) }
                socket.onClose = { [unowned self] info in
                    if received < count { fail("connection closed after \(received) of \(count) echoes: \(info.error.map { "\($0)" } ?? "code \(info.code)")") }
                }
                started = now()
                if count == 0 {
                    finished = started
                    continuation.resume()
                    done = nil
                    return
                }
                for _ in 0..<min(window, count) { sendNext() }
            }
        }
    }
}

func runExchange() async {
    let socket: WebSocket
    do {
        socket = try WebSocket(url: arguments.url, options: WebSocketOptions(maxMessageSize: max(16 << 20, arguments.size * 2)), callbackQueue: queue)
        try await socket.connect()
    } catch {
        fail("connect failed: \(error)")
    }
    let exchange = Exchange(socket: socket, arguments: arguments)
    await exchange.run()
    let seconds = Double(exchange.finished - exchange.started) / 1e9
    let rate = seconds > 0 ? Double(arguments.count) / seconds : 0
    var fields = ["\"ok\":true", "\"mode\":\"\(arguments.mode)\"", "\"client\":\"wirekit\"",
                  "\"msgs_per_s\":\(format(rate))", "\"elapsed_s\":\(format(seconds))",
                  "\"count\":\(arguments.count)", "\"size\":\(arguments.size)", "\"binary\":\(arguments.binary)"]
    if arguments.mode == "rtt" {
        let sorted = exchange.latencies.sorted()
        func percentile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((q * Double(sorted.count)).rounded(.up))
            return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1000
        }
        fields += ["\"p50_us\":\(format(percentile(0.5)))", "\"p99_us\":\(format(percentile(0.99)))"]
    } else {
        fields.append("\"window\":\(arguments.window)")
    }
    if arguments.mode == "bulk" {
        fields.append("\"MB_per_s\":\(format(seconds > 0 ? Double(arguments.count * arguments.size) / seconds / 1e6 : 0))")
    }
    _ = await socket.close()
    print("{" + fields.joined(separator: ",") + "}")
}

/// connections mode: C sockets started at once, one message each. Confined to `queue`.
final class ConnectionStorm: @unchecked Sendable {
    var sockets: [WebSocket] = []
    var verified = 0
    var done: CheckedContinuation<Void, Never>?

    func run(count: Int) async -> UInt64 {
        let started = now()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                done = continuation
                if count == 0 { return finish() }
                for i in 0..<count {
                    let socket: WebSocket
                    do {
                        socket = try WebSocket(url: arguments.url, callbackQueue: queue)
                    } catch {
                        fail("connection \(i): \(error)")
                    }
                    let binary = arguments.binary
                    socket.onOpen = { [unowned socket] _ in
                        do {
                            if binary { try socket.write(data: patterns.datas[i & 15]) } else { try socket.write(text: patterns.texts[i & 15]) }
                        } catch {
                            fail("connection \(i): send failed: \(error)")
                        }
                    }
                    socket.onText = { [unowned self] text in
                        guard !binary, text == patterns.texts[i & 15] else { fail("connection \(i): wrong echo") }
                        verified += 1
                        if verified == count { finish() }
                    }
                    socket.onBinary = { [unowned self] data in
                        guard binary, data == patterns.datas[i & 15] else { fail("connection \(i): wrong echo") }
                        verified += 1
                        if verified == count { finish() }
                    }
                    socket.onError = { error in fail("connection \(i): \(error)") }
                    sockets.append(socket)
                    socket.open()
                }
            }
        }
        return now() - started
    }

    private func finish() {
        done?.resume()
        done = nil
    }
}

func runConnections() async {
    let storm = ConnectionStorm()
    let elapsed = await storm.run(count: arguments.connections)
    let rss = peakRSSKiB()
    let sockets = queue.sync { storm.sockets }
    for socket in sockets { socket.onClose = nil; socket.onError = nil }
    await withTaskGroup(of: Void.self) { group in
        for socket in sockets { group.addTask { _ = await socket.close() } }
    }
    let fields = ["\"ok\":true", "\"mode\":\"connections\"", "\"client\":\"wirekit\"",
                  "\"connect_total_ms\":\(format(Double(elapsed) / 1e6))", "\"rss_kib\":\(rss)",
                  "\"connections\":\(arguments.connections)", "\"size\":\(arguments.size)", "\"binary\":\(arguments.binary)"]
    print("{" + fields.joined(separator: ",") + "}")
}

if arguments.mode == "connections" {
    await runConnections()
} else {
    await runExchange()
}
